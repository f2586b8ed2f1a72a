// A pointer into shared memory indexed by an unsigned int that went below zero:
// `right[~i]` with i unsigned, which a merge-path search writes for right[-1 - i]
// (HeCBench's merge). In C++ the index is 2^32 - 1 - i, far past the array; the
// GPU computes shared-memory addresses in 32 bits, where it wraps back to
// right[-1 - i], and the kernel reads the array as meant. The CPU emulator
// computes addresses in 64 bits: it refuses, naming the line.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void mirror(int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  s[t] = 100 + t;
  __syncthreads();
  const int* right = s + 32;  // right[-1 - i] is s[31 - i]
  out[t] = right[~t];
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  mirror<<<1, 32>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  printf("mirror: %s\n", cudaGetErrorString(err));
  int host[32];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int t = 0; t < 32; ++t) right += host[t] == 100 + 31 - t;
  printf("%d of 32 threads read s[31 - t]; thread 0 read %d\n", right, host[0]);
  return 0;
}
