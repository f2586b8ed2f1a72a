// Per-thread cost of the block's barrier under CPU emulation, in a program built for
// the warp lock step (it declares __shared__ memory), run as loops over each warp's
// lanes (the default: every block but the launch's first, whose lanes meet at their
// accesses) or, with CUDA_EMU_LANE_LOOPS=0, each thread on a fiber of its own.
// scripts/bench-warp runs this program both ways and prints the ratio; it is not a
// test. Blocks of 256 threads (8 warps), 64 blocks per launch; this prints
// nanoseconds per thread per iteration, the loop without barrier subtracted.
#include <cuda_runtime.h>

#include <cstdio>

#include "warp_kernels.cuh"

#define FULL 0xffffffffu
#define THREADS 256

// The same loop as the others, with the shared memory that makes the build the lock
// step's, and no barrier.
__global__ void plain(unsigned* out, int k) {
  __shared__ unsigned s[THREADS];
  s[threadIdx.x] = threadIdx.x;
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + 1013904223u;
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = v + s[THREADS - 1 - threadIdx.x];
}

__global__ void barrier(unsigned* out, int k) {
  __shared__ unsigned s[THREADS];
  s[threadIdx.x] = threadIdx.x;
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) {
    __syncthreads();
    v = v * 1664525u + 1013904223u;
  }
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = v + s[THREADS - 1 - threadIdx.x];
}

__global__ void barrier_shfl(unsigned* out, int k) {
  __shared__ unsigned s[THREADS];
  s[threadIdx.x] = threadIdx.x;
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) {
    __syncthreads();
    v = v * 1664525u + __shfl_xor_sync(FULL, v, 1 + (i & 3));
  }
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = v + s[THREADS - 1 - threadIdx.x];
}

int main() {
  const int blocks = 64, k = 200, launches = 5;
  unsigned* out;
  cudaMalloc(&out, blocks * THREADS * sizeof(unsigned));
  const double per = double(blocks) * THREADS * k * launches;
  const double base = seconds(plain, out, k, launches, blocks, THREADS);
  const WarpCase cases[] = {{"barrier", barrier}, {"bar+shfl", barrier_shfl}};
  for (const WarpCase& c : cases) {
    const double ns = (seconds(c.kernel, out, k, launches, blocks, THREADS) - base) / per * 1e9;
    printf("%-10s %7.2f ns per lane per operation\n", c.name, ns);
  }
  unsigned h[2];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("check %08x\n", h[0] ^ h[1]);
  return 0;
}
