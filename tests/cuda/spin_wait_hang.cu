// gpu: skip (it hangs a GPU too, by design)
// Waits no GPU can end, which the emulator names instead of hanging without a word.
//
//   (no argument)  a grid-wide barrier written by hand over one block more than the
//                  H200 holds at once (132: one block of 200 KiB of shared memory on each
//                  multiprocessor): the last block never starts, the others poll for ever;
//   coop           a cooperative launch whose block 0 polls a flag that block 1 sets
//                  only after a grid.sync() block 0 never reaches.
//   assert         block 0 polls a flag that block 1 would set after an assert that
//                  fails: the assert ends the kernel, and the wait with it (no hang).
// Run with CUDA_EMU_SPIN_HANG_MS set low, and a time limit.
#include <cuda_runtime.h>

#include <cooperative_groups.h>

#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void barrier_by_hand(unsigned* arrived) {
  extern __shared__ unsigned char scratch[];
  if (threadIdx.x == 0) {
    scratch[0] = 1;
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
  }
}

__global__ void flag_across_blocks(int* flag) {
  if (blockIdx.x == 1) {
    cooperative_groups::this_grid().sync();
    if (threadIdx.x == 0) atomicExch(flag, 1);
  } else if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
  }
}

__global__ void flag_after_assert(volatile int* flag) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (*flag == 0) {
    }
  } else {
    assert(*flag == 1);
    *flag = 1;
  }
}

int main(int argc, char** argv) {
  unsigned* word;
  cudaMalloc(&word, sizeof(unsigned));
  cudaMemset(word, 0, sizeof(unsigned));
  if (argc > 1 && strcmp(argv[1], "coop") == 0) {
    int* flag = reinterpret_cast<int*>(word);
    void* args[] = {&flag};
    cudaLaunchCooperativeKernel((void*)flag_across_blocks, 2, 32, args);
  } else if (argc > 1 && strcmp(argv[1], "assert") == 0) {
    flag_after_assert<<<2, 32>>>(reinterpret_cast<int*>(word));
  } else {
    const int shared = 200 * 1024;
    cudaFuncSetAttribute(barrier_by_hand, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);
    barrier_by_hand<<<133, 32, shared>>>(word);
  }
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
