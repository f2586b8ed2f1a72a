// Two device buffers (4096 and 256 bytes) allocated, used and never freed:
// memcheck's leak check ("LEAK SUMMARY: 4352 bytes leaked in 2
// allocations"); without --leak-check nothing is reported.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void fill(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}

int main() {
  int *big, *small;
  cudaMalloc(&big, 4096);
  cudaMalloc(&small, 256);
  fill<<<4, 256>>>(big, 1024);
  fill<<<1, 64>>>(small, 64);
  cudaError_t sync = cudaDeviceSynchronize();
  int h[64];
  cudaError_t copy = cudaMemcpy(h, small, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("sync %d copy %d small[63] %d\n", sync, copy, h[63]);
  return 0;
}
