// One element past a cudaMalloc'd buffer: 256 threads each write out[i + 1],
// so thread 255 of block 0 writes out[256], the 4 bytes just after a
// 1024-byte allocation.
// On the GPU without a sanitizer: nothing visible (the allocation granule is
// larger). Under compute-sanitizer memcheck: "Invalid __global__ write of size
// 4 bytes ... by thread (255,0,0) in block (0,0,0)". In the emulator: nothing
// visible normally; with CUDA_EMU_BOUNDS_CHECK=1 a memcheck-style report on
// stderr and a non-zero status.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void shifted_write(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 1] = static_cast<float>(i);
}

int main() {
  const int n = 256;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  shifted_write<<<1, n>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  float h[n];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d out[1] %g out[255] %g\n", launch, sync, copy, h[1],
              h[255]);
  cudaFree(d);
  return 0;
}
