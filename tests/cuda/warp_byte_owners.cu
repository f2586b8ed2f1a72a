// Per-thread byte counters in shared memory, laid out so that the lanes of a warp,
// and threads of different warps, own different bytes of the same 4-byte words (the
// layout of a per-thread byte histogram: thread t's counter for bin b is byte
// b * THREADS + perm(t)). No thread reads another's byte, so nothing here is
// communication: the emulator's lock step must not take neighbouring bytes of one word
// for a conversation (no warning, and the launch's later blocks run without meetings).
// Then, after a barrier, threads add up whole words (reading others' bytes: ordered by
// the barrier), and a last part writes halves and reads them back as words across a
// barrier. Printed from the host: per-block sums and a hash.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kThreads = 128;
constexpr int kBins = 16;
constexpr int kBlocks = 6;

__device__ unsigned perm(unsigned t) {
  // Lanes 0..31 of a warp spread over 8 words, 4 lanes to a word; the warps interleave.
  return ((t & 7u) << 2) | ((t >> 3) & 3u) | (t & ~31u);
}

__global__ void byte_counts(const unsigned* data, unsigned* sums, unsigned* words, int n) {
  __shared__ unsigned char counts[kBins * kThreads];
  __shared__ unsigned short halves[kThreads];
  unsigned t = threadIdx.x;
  for (int b = 0; b < kBins; ++b) counts[b * kThreads + perm(t)] = 0;
  __syncthreads();
  for (int i = blockIdx.x * kThreads + t; i < n; i += kThreads * gridDim.x) {
    unsigned v = data[i];
    for (int k = 0; k < 4; ++k) ++counts[((v >> (8 * k)) & (kBins - 1)) * kThreads + perm(t)];
  }
  halves[t] = static_cast<unsigned short>(t * 257u + blockIdx.x);
  __syncthreads();
  if (t < kBins) {
    const unsigned* row = reinterpret_cast<const unsigned*>(counts + t * kThreads);
    unsigned s = 0;
    for (int w = 0; w < kThreads / 4; ++w) {
      unsigned x = row[w];
      s += (x & 0xff) + ((x >> 8) & 0xff) + ((x >> 16) & 0xff) + (x >> 24);
    }
    sums[blockIdx.x * kBins + t] = s;
  }
  if (t < kThreads / 2) words[blockIdx.x * (kThreads / 2) + t] = reinterpret_cast<const unsigned*>(halves)[t];
}

int main() {
  const int n = 1 << 15;
  static unsigned host[n];
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    host[i] = x;
  }
  unsigned *data, *sums, *words;
  cudaMalloc(&data, sizeof host);
  cudaMalloc(&sums, kBlocks * kBins * sizeof(unsigned));
  cudaMalloc(&words, kBlocks * (kThreads / 2) * sizeof(unsigned));
  cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
  byte_counts<<<kBlocks, kThreads>>>(data, sums, words, n);
  unsigned s[kBlocks * kBins], w[kBlocks * (kThreads / 2)];
  cudaMemcpy(s, sums, sizeof s, cudaMemcpyDeviceToHost);
  cudaMemcpy(w, words, sizeof w, cudaMemcpyDeviceToHost);
  for (int b = 0; b < kBlocks; ++b) {
    printf("block %d:", b);
    for (int i = 0; i < kBins; ++i) printf(" %u", s[b * kBins + i]);
    printf("\n");
  }
  unsigned h = 0;
  for (unsigned v : w) h = h * 31u + v;
  printf("halves hash %08x\n", h);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
