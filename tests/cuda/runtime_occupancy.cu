// The occupancy calculator on kernels that need few registers: active blocks
// per SM for several block sizes and dynamic shared-memory amounts, after an
// opt-in above 48 KiB and a carveout, the potential block size (with and without
// a block-size limit and shared memory), its variable-shared-memory form, and
// cudaFuncGetAttributes' fields that do not depend on register allocation.
// (No __launch_bounds__: the emulator does not see them, see tests/cuda/README.md.)
// (Kernels with static __shared__ arrays are left out: the emulator does not
// know a kernel's static shared size, see tests/cuda/README.md.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void light(float* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = p[i] * 2.0f + 1.0f;
}

__global__ void bounded(float* p) { p[threadIdx.x] += 1.0f; }

static size_t smem_for(int block) { return (size_t)block * 16; }

int main() {
  int blocks[] = {1, 32, 33, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
  size_t smems[] = {0, 1, 1024, 4096, 12288, 16384, 30000, 48000, 49152};
  for (int b : blocks)
    for (size_t s : smems) {
      int n = -1;
      cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, b, s);
      printf("light block %d smem %zu: %d blocks %d\n", b, s, (int)e, n);
    }
  for (int b : {128, 256, 512}) {
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bounded, b, 0);
    printf("bounded block %d: %d blocks %d\n", b, (int)e, n);
    cudaGetLastError();
  }
  int n = -1;
  printf("too much smem %d\n", (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, 128, 60000));
  printf("  blocks %d\n", n);
  cudaGetLastError();
  printf("block 0 %d\n", (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, 0, 0));
  cudaGetLastError();
  printf("block 2048 %d\n", (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, 2048, 0));
  cudaGetLastError();
  printf("opt in %d\n", (int)cudaFuncSetAttribute(light, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000));
  for (size_t s : {60000, 100000, 116000, 150000, 200000, 232448}) {
    n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, 256, s);
    printf("opted block 256 smem %zu: %d blocks %d\n", s, (int)e, n);
    cudaGetLastError();
  }
  printf("carveout %d\n", (int)cudaFuncSetAttribute(light, cudaFuncAttributePreferredSharedMemoryCarveout, 25));
  for (size_t s : {0, 4096, 20000, 40000}) {
    n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, light, 128, s);
    printf("carveout 25 block 128 smem %zu: %d blocks %d\n", s, (int)e, n);
  }
  int flagsn = -1;
  printf("with flags %d", (int)cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                              &flagsn, bounded, 128, 0, cudaOccupancyDefault));
  printf(" blocks %d\n", flagsn);

  int grid = -1, block = -1;
  cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded, 0, 0);
  printf("potential bounded: %d grid %d block %d\n", (int)e, grid, block);
  for (size_t s : {0, 20000, 40000}) {
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded, s, 0);
    printf("potential bounded smem %zu: %d grid %d block %d\n", s, (int)e, grid, block);
  }
  for (int limit : {0, 100, 192, 200}) {
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded, 0, limit);
    printf("potential bounded limit %d: %d grid %d block %d\n", limit, (int)e, grid, block);
  }
  e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, bounded, smem_for, 0);
  printf("potential variable: %d grid %d block %d\n", (int)e, grid, block);

  for (int nb : {1, 2, 3, 8, 32, 40})
    for (int b : {64, 256, 1024}) {
      size_t avail = 7;
      e = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, bounded, nb, b);
      printf("available smem blocks %d block %d: %d %zu\n", nb, b, (int)e, avail);
      cudaGetLastError();
    }
  cudaFuncAttributes a;
  e = cudaFuncGetAttributes(&a, bounded);
  printf("attributes bounded: %d maxThreads %d ptx %d binary %d maxDynShared %d "
         "carveout %d shared %zu\n",
         (int)e, a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion,
         a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout, a.sharedSizeBytes);
  e = cudaFuncGetAttributes(&a, light);
  printf("attributes light: %d maxThreads %d maxDynShared %d carveout %d shared %zu const %zu\n",
         (int)e, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout,
         a.sharedSizeBytes, a.constSizeBytes);
  return 0;
}
