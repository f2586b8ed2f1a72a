// <cuda/barrier>: a wait that can never complete. The barrier expects one arrival more
// than the block has threads; on a GPU the block waits forever (not run there). The
// emulator must report it with the line of the wait, not hang.
// gpu: skip
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void never(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  never<<<1, 64>>>(d);
  printf("sync %d\n", cudaDeviceSynchronize());
  return 0;
}
