// The reduction CUDA courses taught before warp shuffles: a tree over shared
// memory with a __syncthreads per level, the last 32 sums warp-synchronous
// through volatile shared memory. Every thread's volatile reads go to a new
// word each step: to the emulator's spin-wait counting (README, "Threads and
// blocks that wait for one another") none is a poll of a word read before, so
// this measures what the counting costs a kernel that never waits. 16384 blocks
// of 256 threads, checked against the host's sum (PASS).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kThreads = 256, kBlocks = 16384;

__device__ void warp_reduce(volatile int* s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void reduce(const int* in, int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  for (int half = kThreads / 2; half > 32; half /= 2) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t < 32) warp_reduce(s, t);
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int n = kThreads * kBlocks;
  std::vector<int> host(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = (i * 7919) % 1000 - 500;
    expected += host[i];
  }
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, kBlocks * sizeof(int));
  cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reduce<<<kBlocks, kThreads>>>(in, out);
  std::vector<int> sums(kBlocks);
  cudaMemcpy(sums.data(), out, kBlocks * sizeof(int), cudaMemcpyDeviceToHost);
  long long got = 0;
  for (int b = 0; b < kBlocks; ++b) got += sums[b];
  printf("%s: sum %lld, expected %lld\n", got == expected ? "PASS" : "FAIL", got, expected);
  return got == expected ? 0 : 1;
}
