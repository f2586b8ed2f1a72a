// What the runtime says to misused memory calls: a host pointer where a device
// pointer belongs, a copy longer than the allocation, a bad copy kind, freeing
// a host pointer, freeing twice, a zero-byte allocation, an impossible one.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  float host[256] = {0};
  float* d = nullptr;
  cudaMalloc(&d, 256 * sizeof(float));
  std::printf("H2D into a host pointer: %d\n", cudaMemcpy(host, host + 128, 64, cudaMemcpyHostToDevice));
  std::printf("last %d\n", cudaGetLastError());
  std::printf("D2H from a host pointer: %d\n", cudaMemcpy(host, host + 128, 64, cudaMemcpyDeviceToHost));
  std::printf("last %d\n", cudaGetLastError());
  static float twice[512];
  std::printf("H2D twice the allocation: %d\n", cudaMemcpy(d, twice, sizeof twice, cudaMemcpyHostToDevice));
  std::printf("last %d\n", cudaGetLastError());
  std::printf("H2D inside, at an offset: %d\n", cudaMemcpy(d + 128, host, 128 * sizeof(float), cudaMemcpyHostToDevice));
  std::printf("bad kind 7: %d\n", cudaMemcpy(d, host, 16, static_cast<cudaMemcpyKind>(7)));
  std::printf("last %d\n", cudaGetLastError());
  std::printf("cudaMemcpyDefault to device: %d\n", cudaMemcpy(d, host, 16, cudaMemcpyDefault));
  std::printf("cudaMemcpyDefault to host: %d\n", cudaMemcpy(host, d, 16, cudaMemcpyDefault));
  std::printf("memset device: %d\n", cudaMemset(d, 0, 256 * sizeof(float)));
  std::printf("free host pointer: %d\n", cudaFree(host));
  std::printf("last %d\n", cudaGetLastError());
  std::printf("free: %d\n", cudaFree(d));
  std::printf("free again: %d\n", cudaFree(d));
  std::printf("last %d\n", cudaGetLastError());
  std::printf("free null: %d\n", cudaFree(nullptr));
  void* z = reinterpret_cast<void*>(1);
  cudaError_t e = cudaMalloc(&z, 0);
  std::printf("malloc 0: %d null %d\n", e, z == nullptr);
  void* big = nullptr;
  e = cudaMalloc(&big, static_cast<size_t>(1) << 50);
  std::printf("malloc 1 PiB: %d %s null %d\n", e, cudaGetErrorString(e), big == nullptr);
  cudaError_t first = cudaGetLastError();
  cudaError_t second = cudaGetLastError();
  std::printf("last %d then %d\n", first, second);
  return 0;
}
