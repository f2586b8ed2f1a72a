// A shared-memory tile read before the barrier that should separate its
// writes (line 11) from its reads (line 13): racecheck's hazard pair.
// Prints only what the race cannot change (the GPU's values vary run to run).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void rotate(const float* in, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
  // missing: __syncthreads();
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
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d\n", launch, sync, copy);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
