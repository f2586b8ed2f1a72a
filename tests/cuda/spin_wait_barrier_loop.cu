// Blocks whose every thread waits for words that threads of later blocks set,
// in a loop with a __syncthreads in it, as a Barnes-Hut tree code's sort does
// (each thread waits for its cell's start, which whichever thread placed the
// cell's parent sets). Here the cells form a binary heap of 4096: cell k's
// start is 2s + 1 or 2s + 2 for its parent's s, the root's is 0, so every
// cell's start is its own index. Thread g of the grid's 256 takes cells g,
// g + 256, ...; block 0's cell 256 waits for cell 127, block 1's. A GPU runs
// the 4 blocks at once; an emulator that runs them in turns must see that all
// of block 0 waits, though its threads keep passing the barrier. Threads that
// are done return while the others still loop (PTX's exit: they do not hold
// the barrier up).
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kCells = 4096;

__global__ void place(volatile int* start, int* placed_by) {
  const int threads = gridDim.x * blockDim.x;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  while (k < kCells) {
    const int s = start[k];
    if (s >= 0) {
      if (2 * k + 1 < kCells) start[2 * k + 1] = 2 * s + 1;
      if (2 * k + 2 < kCells) start[2 * k + 2] = 2 * s + 2;
      placed_by[k] = blockIdx.x;
      k += threads;
    }
    __syncthreads();  // as the tree code has it: "optional barrier for performance"
  }
}

int main() {
  int *start, *placed_by;
  cudaMalloc(&start, kCells * sizeof(int));
  cudaMalloc(&placed_by, kCells * sizeof(int));
  cudaMemset(start, 0xff, kCells * sizeof(int));  // -1: not placed yet
  cudaMemset(start, 0, sizeof(int));               // the root
  place<<<4, 64>>>(start, placed_by);
  cudaError_t err = cudaDeviceSynchronize();
  printf("place: %s\n", cudaGetErrorString(err));
  static int host[kCells], by[kCells];
  cudaMemcpy(host, start, sizeof host, cudaMemcpyDeviceToHost);
  cudaMemcpy(by, placed_by, sizeof by, cudaMemcpyDeviceToHost);
  int right = 0, by_block[4] = {0, 0, 0, 0};
  for (int k = 0; k < kCells; ++k) {
    right += host[k] == k;
    if (by[k] >= 0 && by[k] < 4) ++by_block[by[k]];
  }
  printf("%d of %d cells placed where they belong; cells per block %d %d %d %d\n", right, kCells,
         by_block[0], by_block[1], by_block[2], by_block[3]);
  return 0;
}
