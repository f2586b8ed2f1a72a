// gpu: skip
// Errors in some blocks of a grid whose blocks run on several cores: the report
// and what was printed before it must be what one core gives (the test runs each
// mode with 1 and 2 threads and compares stdout, stderr and the status). A block
// that hits its error early on another core waits until every block before it has
// finished; if one of them stops the kernel first, it is never reported. Not run
// on the GPU (the faults are undefined behaviour there, the divergent __syncwarp hangs).
//   1: asserts in block 5 (after a spin) and block 9 (at once): block 5's is reported
//   2: a null write in block 9 (at once), an assert in block 5 (after a spin): the
//      assert; then after cudaDeviceReset a launch whose block 9 faults: the fault
//   3: a whole-warp __syncwarp that thread 0 of block 7 never reaches (it waits at a
//      __syncthreads after a spin), __trap in block 20
//   4: __trap in block 3 (after a spin), the same divergent __syncwarp in block 8 (at once)
#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>
#include <cstdlib>

// Keeps the thread busy for about ms milliseconds.
__device__ void spin(int ms) {
  const long long start = clock64();
  while (clock64() - start < ms * 1000000ll) {
  }
}

__global__ void blocks(int mode) {
  if (threadIdx.x == 0) printf("block %d starts\n", blockIdx.x);
  const bool late = threadIdx.x == 0;
  if (mode == 1) {
    if (blockIdx.x == 5) {
      if (late) spin(30);
      assert(threadIdx.x != 3);
    }
    if (blockIdx.x == 9) assert(threadIdx.x != 1);
  } else if (mode == 2) {
    if (blockIdx.x == 5) {
      if (late) spin(30);
      assert(threadIdx.x != 3);
    }
    if (blockIdx.x == 9 && threadIdx.x == 2) *static_cast<volatile int*>(nullptr) = 1;
  } else if (mode == 3) {
    if (blockIdx.x == 7) {
      if (late) spin(30);
      if (threadIdx.x != 0) __syncwarp(); else __syncthreads();
    }
    if (blockIdx.x == 20) __trap();
  } else if (mode == 4) {
    if (blockIdx.x == 3) {
      if (late) spin(30);
      if (threadIdx.x == 1) __trap();
    }
    if (blockIdx.x == 8) {
      if (threadIdx.x != 0) __syncwarp(); else __syncthreads();
    }
  } else if (mode == 5) {
    if (blockIdx.x == 9 && threadIdx.x == 2) *static_cast<volatile int*>(nullptr) = 1;
  }
  if (threadIdx.x == 0) printf("block %d ends\n", blockIdx.x);
}

int main(int argc, char** argv) {
  const int mode = argc > 1 ? atoi(argv[1]) : 1;
  blocks<<<64, 32>>>(mode);
  printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  if (mode == 2) {
    cudaDeviceReset();
    blocks<<<64, 32>>>(5);
    printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  }
  return 0;
}
