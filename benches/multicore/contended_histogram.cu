// A naive 256-bin histogram: every thread adds one to its byte's bin in global
// memory, so every block hammers the same four cache lines. On a GPU the L2
// takes those atomics; on a CPU each core waits for the line to come from the
// others, and a block can cost a core several times what it costs alone.
// scripts/bench-contention times it on one thread and on several, with the
// emulator's contention guard on and off. 16 Mi bytes, 4 launches; the host
// checks the bins against its own count.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void histogram(const unsigned char* bytes, unsigned* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[bytes[i]], 1u);
}

int main() {
  const int n = 1 << 24;
  const int launches = 4;
  unsigned char* bytes = new unsigned char[n];
  unsigned want[256] = {};
  for (int i = 0; i < n; ++i) {
    bytes[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);
    want[bytes[i]] += launches;
  }
  unsigned char* d_bytes;
  unsigned* d_bins;
  cudaMalloc(&d_bytes, n);
  cudaMalloc(&d_bins, 256 * sizeof(unsigned));
  cudaMemcpy(d_bytes, bytes, n, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, 256 * sizeof(unsigned));
  for (int r = 0; r < launches; ++r) histogram<<<n / 256, 256>>>(d_bytes, d_bins, n);
  unsigned bins[256];
  cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < 256; ++b) wrong += bins[b] != want[b];
  printf("%s: %d of 256 bins wrong\n", wrong ? "FAIL" : "PASS", wrong);
  cudaFree(d_bytes);
  cudaFree(d_bins);
  delete[] bytes;
  return wrong ? 1 : 0;
}
