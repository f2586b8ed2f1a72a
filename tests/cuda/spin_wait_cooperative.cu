// A cooperative launch whose blocks wait for one another by polling, with grid.sync()
// around: block b polls block b + 1's flag (a chain down from the last block), then
// every block meets in grid.sync() and sums what all the blocks wrote. The emulator
// runs a cooperative grid's blocks in turns; a block that waits gives its turn.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void chain_then_sync(volatile int* flags, volatile long long* values,
                                long long* sums) {
  cg::grid_group grid = cg::this_grid();
  const unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    long long next = 0;
    if (b + 1 < gridDim.x) {
      while (flags[b + 1] == 0) {
      }
      next = values[b + 1];
    }
    values[b] = next * 5 + b + 1;
    __threadfence();
    flags[b] = 1;
  }
  grid.sync();
  if (threadIdx.x == 0) {
    long long sum = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) sum += values[i];
    sums[b] = sum;
  }
}

int main() {
  const int blocks = 8;
  int* flags;
  long long *values, *sums;
  cudaMalloc(&flags, blocks * sizeof(int));
  cudaMalloc(&values, blocks * sizeof(long long));
  cudaMalloc(&sums, blocks * sizeof(long long));
  cudaMemset(flags, 0, blocks * sizeof(int));
  void* args[] = {&flags, &values, &sums};
  cudaError_t launched =
      cudaLaunchCooperativeKernel((void*)chain_then_sync, blocks, 64, args);
  long long got[blocks];
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  int agree = 0;
  for (int b = 0; b < blocks; ++b) agree += got[b] == got[0];
  printf("launch %s; every block's sum %lld; %d of %d blocks agree\n",
         cudaGetErrorString(launched), got[0], agree, blocks);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
