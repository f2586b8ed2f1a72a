// A read of an int from a thread's local char buffer at offset 1 (line 12): the
// offset comes from the host. memcheck reports a misaligned __local__ read if the
// H200 faults on it; this probe records what it does.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void r(int* out, int off) {
  char buf[16];
  for (int i = 0; i < 16; ++i) buf[i] = static_cast<char>(i + threadIdx.x);
  const int* p = reinterpret_cast<const int*>(buf + off);
  out[threadIdx.x] = *p;
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  r<<<1, 1>>>(d, 1);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d value 0x%x\n", launch, sync, h);
  cudaFree(d);
  return 0;
}
