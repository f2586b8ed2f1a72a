// A correct program for every sanitizer: a shared tile with its barrier,
// inputs copied in before they are read, every buffer freed. Each tool
// reports 0 errors.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void rotate(const float* in, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = tile[(t + 1) % 256];
}

int main() {
  const int n = 1024;
  static float h[n];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  rotate<<<4, 256>>>(in, out);
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  std::printf("sync %d copy %d out[0] %g out[255] %g sum %g\n", sync, copy, h[0], h[255], sum);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
