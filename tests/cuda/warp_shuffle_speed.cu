// A shuffle-heavy kernel (widths 8, 16 and 32: xor, down, up and indexed shuffles)
// and a warp-aggregated histogram (__match_any_sync, then a shuffle over the partial
// mask of each group of lanes with the same key): checksums only. Its wall time is
// what scripts/bench-warp compares with the H200's.
#include <cuda_runtime.h>

#include <cstdio>

#define FULL 0xffffffffu

__device__ unsigned rotl(unsigned x, int n) { return (x << n) | (x >> (32 - n)); }

__global__ void shuffles(unsigned* out, int iters) {
  unsigned v = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
  for (int i = 0; i < iters; ++i) {
    v += __shfl_xor_sync(FULL, v, 1, 8);
    v ^= rotl(__shfl_down_sync(FULL, v, 3, 16), 5);
    v += __shfl_up_sync(FULL, v, 2, 32);
    v = rotl(v, 3) ^ __shfl_sync(FULL, v, (v >> 7) & 31, 32);
    v += __shfl_sync(FULL, v, (i + 3) & 15, 16);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void aggregated(unsigned* hist, unsigned* ranks, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  unsigned x = t * 747796405u + 2891336453u;
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    unsigned key = (x >> 9) % 13;
    unsigned group = __match_any_sync(FULL, key);
    int leader = __ffs(group) - 1;
    unsigned base = 0;
    if ((int)lane == leader) base = atomicAdd(&hist[key], __popc(group));
    base = __shfl_sync(group, base, leader);
    acc += base + __popc(group & ((1u << lane) - 1));
  }
  ranks[t] = acc;
}

int main() {
  const int blocks = 64, threads = 256;
  unsigned *d, *h, *r;
  cudaMalloc(&d, blocks * threads * sizeof(unsigned));
  cudaMalloc(&h, 13 * sizeof(unsigned));
  cudaMalloc(&r, blocks * threads * sizeof(unsigned));
  cudaMemset(h, 0, 13 * sizeof(unsigned));
  shuffles<<<blocks, threads>>>(d, 1000);
  static unsigned o[blocks * threads];
  cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost);
  unsigned sum = 0, x = 0;
  for (int i = 0; i < blocks * threads; ++i) {
    sum += o[i];
    x ^= o[i] * (i + 1);
  }
  printf("shuffles sum %08x xor %08x first %08x last %08x\n", sum, x, o[0], o[blocks * threads - 1]);
  aggregated<<<blocks / 4, threads>>>(h, r, 200);
  unsigned hh[13];
  cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost);
  unsigned total = 0;
  printf("aggregated");
  for (int i = 0; i < 13; ++i) {
    printf(" %u", hh[i]);
    total += hh[i];
  }
  printf(" total %u\n", total);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
