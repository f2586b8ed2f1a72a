// Per-operation cost of warp intrinsics under CPU emulation, against the cost of a
// fiber switch measured in the same run (scripts/bench-warp builds and runs this
// through the emulator with CUDA_EMU_LANE_LOOPS=0, every lane on a fiber of its own;
// it is not a test). Each kernel runs one 32-thread block per
// launch, K operations per thread:
//   loop      the same loop with no warp operation (subtracted from the others)
//   barrier   __syncthreads(): each lane parks and the next runs, one switch a lane
//   shfl_xor  __shfl_xor_sync at width 32, 16 and 8
//   ballot    __ballot_sync
//   match     __match_any_sync
// and prints nanoseconds per lane per operation, and each one's ratio to `barrier`.
// Then the cost of a short thread's one warp operation: 1024 blocks of 256 threads
// that each do one __shfl_sync (every lane then needs a fiber of its own), against
// the same threads without it (run one after another on one fiber), per thread:
// what dominates a kernel like tests/cuda/warp_aggregated_atomics.cu.
#include <cuda_runtime.h>

#include <cstdio>

#include "warp_kernels.cuh"

__global__ void barrier(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) {
    v = v * 1664525u + 1013904223u;
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

__global__ void short_plain(unsigned* out, int k) {
  out[threadIdx.x] = threadIdx.x * 1664525u + k;
}

__global__ void short_shfl(unsigned* out, int k) {
  out[threadIdx.x] = threadIdx.x * 1664525u + __shfl_sync(0xffffffffu, k + threadIdx.x, 0);
}

int main() {
  unsigned* out;
  cudaMalloc(&out, 256 * sizeof(unsigned));
  const int k = 10000, launches = 10;
  const double ops = 32.0 * k * launches;
  double base = seconds(loop, out, k, launches);
  double bar = (seconds(barrier, out, k, launches) - base) / ops * 1e9;
  printf("%-10s %7.2f ns per lane per operation (the fiber-switch baseline)\n", "barrier", bar);
  for (const WarpCase& c : kWarpCases) {
    double ns = (seconds(c.kernel, out, k, launches) - base) / ops * 1e9;
    printf("%-10s %7.2f ns per lane per operation, %.2fx the baseline\n", c.name, ns, ns / bar);
  }
  const int blocks = 1024, threads = 256;
  const double short_threads = 1.0 * blocks * threads * launches;
  const double plain = seconds(short_plain, out, 1, launches, blocks, threads) / short_threads * 1e9;
  const double one = seconds(short_shfl, out, 1, launches, blocks, threads) / short_threads * 1e9;
  printf("%-10s %7.2f ns per thread with one __shfl_sync, %.2f without: the first warp operation of "
         "a thread costs %.2fx the baseline\n", "short", one, plain, (one - plain) / bar);
  return 0;
}
