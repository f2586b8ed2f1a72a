// assert() in a kernel: thread 3 of block 1 fails it. The GPU prints
// "FILE:LINE: FUNCTION: block: [1,0,0], thread: [3,0,0] Assertion `...`
// failed." on stderr, the kernel stops, and the error is sticky: every later
// runtime call that needs the device returns cudaErrorAssert (710).
#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>

__global__ void check(const int* v) {
  assert(!(blockIdx.x == 1 && threadIdx.x == 3) || v[0] == 42);
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  check<<<2, 8>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch %d sync %d (%s)\n", launch, sync, cudaGetErrorString(sync));
  cudaError_t get1 = cudaGetLastError();
  cudaError_t get2 = cudaGetLastError();
  std::printf("get %d then %d\n", get1, get2);
  int* e = nullptr;
  cudaError_t m = cudaMalloc(&e, 16);
  int h = 0;
  cudaError_t c = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  check<<<1, 1>>>(d);
  cudaError_t again = cudaGetLastError();
  std::printf("malloc %d memcpy %d launch %d\n", m, c, again);
  return 0;
}
