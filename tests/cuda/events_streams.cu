// Streams and events: a created stream, async copies and a launch on it,
// stream and event synchronization, elapsed time (only its sign is
// printed), pinned host memory, destroy.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void scale(float* x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

int main() {
  const int n = 1000;
  float* h = nullptr;
  std::printf("cudaMallocHost: %d\n", cudaMallocHost(&h, n * sizeof(float)));
  for (int k = 0; k < n; ++k) h[k] = static_cast<float>(k);
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s;
  cudaEvent_t start, stop;
  std::printf("stream create: %d\n", cudaStreamCreate(&s));
  cudaError_t e1 = cudaEventCreate(&start);
  cudaError_t e2 = cudaEventCreate(&stop);
  std::printf("event create: %d %d\n", e1, e2);
  cudaEventRecord(start, s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<(n + 127) / 128, 128, 0, s>>>(d, 2.0f, n);
  scale<<<(n + 127) / 128, 128, 0>>>(d, 0.5f, n);  // default stream
  scale<<<(n + 127) / 128, 128, 0, s>>>(d, 3.0f, n);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(stop, s);
  std::printf("stream sync: %d\n", cudaStreamSynchronize(s));
  std::printf("event sync: %d\n", cudaEventSynchronize(stop));
  float ms = -1.0f;
  cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
  std::printf("elapsed: %d, non-negative %d\n", e, ms >= 0.0f);
  std::printf("h[1] %g h[999] %g\n", h[1], h[999]);
  cudaError_t d1 = cudaEventDestroy(start);
  cudaError_t d2 = cudaEventDestroy(stop);
  cudaError_t d3 = cudaStreamDestroy(s);
  std::printf("destroy: %d %d %d\n", d1, d2, d3);
  cudaError_t f1 = cudaFree(d);
  cudaError_t f2 = cudaFreeHost(h);
  std::printf("free: %d %d\n", f1, f2);
  return 0;
}
