// Two static __shared__ arrays of 64 floats: threads 0..63 write a[t + off]
// with off = 64 (line 16), past the end of a. Records how the H200 lays the
// two out (the kernel stores b's offset from a) and whether the writes land
// in b, silently (memcheck sees an access inside the block's shared memory),
// or leave the window (memcheck: an invalid __shared__ write at line 16).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void two(int* out, int off) {
  __shared__ float a[64];
  __shared__ float b[64];
  int t = threadIdx.x;
  b[t] = -1.0f;
  __syncthreads();
  a[t + off] = static_cast<float>(t);
  __syncthreads();
  out[1 + t] = static_cast<int>(b[t]);
  if (t == 0) out[0] = static_cast<int>(reinterpret_cast<char*>(b) - reinterpret_cast<char*>(a));
}

int main() {
  int* d;
  cudaMalloc(&d, 65 * sizeof(int));
  cudaMemset(d, 0, 65 * sizeof(int));
  two<<<1, 64>>>(d, 64);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  static int h[65];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int landed = 0;
  for (int i = 0; i < 64; ++i) landed += h[1 + i] == i;
  std::printf("launch %d sync %d copy %d b-a %d landed in b %d of 64\n", launch, sync, copy, h[0],
              landed);
  cudaFree(d);
  return 0;
}
