// A read before the start of a static __shared__ array: threads 0..31 read
// tile[t - back] with back = 32 (line 14), 128 to 4 bytes before the array,
// which is the block's only shared variable. memcheck reports an invalid
// __shared__ read of size 4 bytes at that line.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void before(float* out, int back) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = static_cast<float>(t);
  __syncthreads();
  float v = t < 32 ? tile[t - back] : tile[t];
  out[t] = v;
}

int main() {
  float* d;
  cudaMalloc(&d, 256 * sizeof(float));
  cudaMemset(d, 0, 256 * sizeof(float));
  before<<<1, 256>>>(d, 32);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  static float h[256];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d out[100] %g\n", launch, sync, copy, h[100]);
  cudaFree(d);
  return 0;
}
