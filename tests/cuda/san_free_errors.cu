// A double cudaFree, a cudaFree of a pointer inside a buffer, and a kernel
// reading a freed buffer (line 11): memcheck's invalid free and
// use-after-free reports.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void read_one(const int* in, int* out) { out[0] = in[0]; }

__global__ void read_freed(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x];
}

int main() {
  int *a, *b, *c;
  cudaMalloc(&a, 256);
  cudaMalloc(&b, 256);
  cudaMalloc(&c, 256);
  cudaMemset(a, 0, 256);
  cudaMemset(b, 0, 256);
  cudaError_t first = cudaFree(a);
  cudaError_t second = cudaFree(a);
  cudaError_t inside = cudaFree(b + 4);
  cudaGetLastError();
  read_one<<<1, 1>>>(b, c);
  cudaError_t ok = cudaDeviceSynchronize();
  cudaFree(b);
  read_freed<<<1, 2>>>(b, c);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("free %d again %d inside %d ok %d launch %d sync %d\n", first, second, inside, ok,
              launch, sync);
  return 0;
}
