// The warp-operation kernels and the timing of benches/warp/warp_ops.cu and
// benches/warp/lane_loops.cu. Each kernel runs K operations per thread:
//   loop      the same loop with no warp operation (subtracted from the others)
//   shfl<W>   __shfl_xor_sync at width W
//   ballot    __ballot_sync
//   match     __match_any_sync
#pragma once
#include <cuda_runtime.h>

#include <chrono>

__global__ void loop(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + 1013904223u;
  out[threadIdx.x] = v;
}

template <int W>
__global__ void shfl(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + __shfl_xor_sync(0xffffffffu, v, 1 + (i & 3), W);
  out[threadIdx.x] = v;
}

__global__ void ballot(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + __ballot_sync(0xffffffffu, v & 1);
  out[threadIdx.x] = v;
}

__global__ void match(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + __match_any_sync(0xffffffffu, v & 3);
  out[threadIdx.x] = v;
}

// The warp-operation kernels both bench programs time, by the name they print.
struct WarpCase {
  const char* name;
  void (*kernel)(unsigned*, int);
};
inline const WarpCase kWarpCases[] = {{"shfl_w32", shfl<32>}, {"shfl_w16", shfl<16>},
                                      {"shfl_w8", shfl<8>},   {"ballot", ballot},
                                      {"match_any", match}};

// The best of five timings of `launches` launches (other processes' load only ever
// adds).
inline double seconds(void (*kernel)(unsigned*, int), unsigned* out, int k, int launches,
                      int blocks = 1, int threads = 32) {
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) kernel<<<blocks, threads>>>(out, k);
    cudaDeviceSynchronize();
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (t < best) best = t;
  }
  return best;
}
