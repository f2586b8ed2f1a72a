// Reads device memory that was allocated and never written (line 10):
// initcheck's "Uninitialized __global__ memory read of size 4 bytes", once
// per thread. The values read are not printed (the GPU's are not defined).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void copy_in(const int* in, int* out) {
  int i = threadIdx.x;
  out[i] = in[i] + 1;
}

int main() {
  const int n = 4;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  copy_in<<<1, n>>>(in, out);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h[n];
  cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d\n", launch, sync, copy);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
