// Cost of one thread switch at a barrier, CPU emulation shim.
//
// A 256-thread block runs a kernel of K __syncthreads() and nothing else; each
// barrier costs 256 switches (every thread arrives, then switches to the
// next), so ns per switch = time / (blocks * 256 * K). A plain-loop launch (no
// barrier) gives the cost per thread without switching, for comparison.
//
// Build and run (from the repository root; SHIM = src/emulate/shim):
//   g++ -std=gnu++17 -O2 -c src/emulate/shim/cuda_emu.cpp -o /tmp/cuda_emu.o
//   g++ -std=gnu++17 -O2 -I src/emulate/shim benches/emulate/switch_cost.cpp \
//       /tmp/cuda_emu.o -o /tmp/switch_cost && /tmp/switch_cost
// The launches are written in the rewriter's output form, so this file needs
// no rewriting.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

constexpr int kThreads = 256;
constexpr int kBarriers = 64;

__global__ void barriers(int* out) {
  int v = threadIdx.x;
  for (int i = 0; i < kBarriers; ++i) {
    v += i;
    __syncthreads();
  }
  if (v == -1) out[0] = v;  // keep the loop
}

__global__ void no_barrier(int* out) {
  if (threadIdx.x == 100000) out[0] = 1;
}

__global__ void shuffles(int* out) {
  int v = threadIdx.x;
  for (int i = 0; i < kBarriers; ++i) v += __shfl_xor_sync(0xffffffffu, v, 1);
  if (v == -1) out[0] = v;
}

template <class F>
double best_seconds(F f) {
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    if (s < best) best = s;
  }
  return best;
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  const int blocks = 64;
  // Warm up: creates the fibers and touches their stacks.
  ::cuda_emu::launch(__FILE__, __LINE__, "barriers", [&](auto&&... a) { barriers(a...); },
                     blocks, kThreads)(out);
  double s = best_seconds([&] {
    ::cuda_emu::launch(__FILE__, __LINE__, "barriers", [&](auto&&... a) { barriers(a...); },
                       blocks, kThreads)(out);
  });
  double switches = static_cast<double>(blocks) * kThreads * kBarriers;
  std::printf("barrier: %.2f ns per switch (%d blocks x %d threads x %d barriers in %.3f ms)\n",
              s * 1e9 / switches, blocks, kThreads, kBarriers, s * 1e3);
  double p = best_seconds([&] {
    ::cuda_emu::launch(__FILE__, __LINE__, "no_barrier", [&](auto&&... a) { no_barrier(a...); },
                       blocks * kBarriers, kThreads)(out);
  });
  std::printf("plain loop: %.2f ns per thread (no barrier, no switch)\n",
              p * 1e9 / (static_cast<double>(blocks) * kBarriers * kThreads));
  double w = best_seconds([&] {
    ::cuda_emu::launch(__FILE__, __LINE__, "shuffles", [&](auto&&... a) { shuffles(a...); },
                       blocks, kThreads)(out);
  });
  std::printf("warp shuffle: %.2f ns per lane per __shfl_xor_sync\n", w * 1e9 / switches);
  cudaFree(out);
  return 0;
}
