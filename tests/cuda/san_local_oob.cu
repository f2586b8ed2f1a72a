// A write to a thread's local array (its stack) far past its end (line 12): the
// index, 1 << 20, comes from the host so the compiler cannot see it. memcheck:
// "Invalid __local__ write of size 4 bytes"; without it the launch fails.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void w(int* out, int idx, int back) {
  int a[16];
  for (int i = 0; i < 16; ++i) a[i] = i * (threadIdx.x + 1);
  a[back & 15] += 1;
  a[idx] = 7;
  out[threadIdx.x] = a[back & 15];
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  w<<<1, 1>>>(d, 1 << 20, 3);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch %d sync %d\n", launch, sync);
  cudaFree(d);
  return 0;
}
