// gpu: skip
// A kernel that never ends: the emulator's caller must stop it with its
// timeout (the shim itself has none). Not run on the GPU.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void spin(volatile int* flag) {
  while (*flag == 0) {
  }
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  std::printf("spinning\n");
  std::fflush(stdout);
  spin<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  std::printf("never printed\n");
  return 0;
}
