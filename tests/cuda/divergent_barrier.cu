// A barrier that not every thread reaches: one block of one warp (32
// threads), thread 0 returns before the __syncthreads the other 31 wait at.
// A one-warp block is the safe shape on a GPU: the warp arrives as one, so it
// cannot hang waiting for another warp. The emulator reports the divergent
// barrier on stderr (FILE:LINE, 31 of 32 threads of block (0,0,0)) and exits
// non-zero. On the GPU: (fill in from tests/cuda/expected once run).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void early_return(int* out) {
  if (threadIdx.x == 0) return;
  out[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] += out[(threadIdx.x % 31) + 1];
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  early_return<<<1, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int v : h) sum += v;
  std::printf("launch %d sync %d sum %d\n", launch, sync, sum);
  return 0;
}
