// A write 1 KB past the end of a 1 KB buffer (line 9): far outside the
// allocation. memcheck: "is 1,025 bytes after the nearest allocation".
#include <cuda_runtime.h>

#include <cstdio>

__global__ void w(float* out) {
  int i = threadIdx.x;
  out[i + 512] = 1.0f;
}

int main() {
  float* d;
  cudaMalloc(&d, 1024);
  w<<<1, 1>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch %d sync %d\n", launch, sync);
  cudaFree(d);
  return 0;
}
