// A missing bounds guard: 1024 threads write a 1000-element buffer, so
// threads 1000..1023 (lanes 8..31 of the last warp) write past its end at
// line 10. memcheck names that line and reports 24 writes.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void scale(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * i;  // no `if (i < n)`
}

int main() {
  const int n = 1000;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  scale<<<4, 256>>>(d, n);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  static float h[n];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d out[999] %g\n", launch, sync, copy, h[999]);
  cudaFree(d);
  return 0;
}
