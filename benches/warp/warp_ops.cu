// Per-operation cost of warp intrinsics under CPU emulation, against the cost of a
// fiber switch measured in the same run (scripts/bench-warp builds and runs this
// through the emulator; it is not a test). Each kernel runs one 32-thread block per
// launch, K operations per thread:
//   loop      the same loop with no warp operation (subtracted from the others)
//   barrier   __syncthreads(): each lane parks and the next runs, one switch a lane
//   shfl_xor  __shfl_xor_sync at width 32, 16 and 8
//   ballot    __ballot_sync
//   match     __match_any_sync
// and prints nanoseconds per lane per operation, and each one's ratio to `barrier`.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

__global__ void loop(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) v = v * 1664525u + 1013904223u;
  out[threadIdx.x] = v;
}

__global__ void barrier(unsigned* out, int k) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < k; ++i) {
    v = v * 1664525u + 1013904223u;
    __syncthreads();
  }
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

// The best of five timings (other processes' load only ever adds).
double seconds(void (*kernel)(unsigned*, int), unsigned* out, int k, int launches) {
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) kernel<<<1, 32>>>(out, k);
    cudaDeviceSynchronize();
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (t < best) best = t;
  }
  return best;
}

int main() {
  unsigned* out;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  const int k = 10000, launches = 10;
  const double ops = 32.0 * k * launches;
  double base = seconds(loop, out, k, launches);
  double bar = (seconds(barrier, out, k, launches) - base) / ops * 1e9;
  printf("%-10s %7.2f ns per lane per operation (the fiber-switch baseline)\n", "barrier", bar);
  struct {
    const char* name;
    void (*kernel)(unsigned*, int);
  } cases[] = {{"shfl_w32", shfl<32>}, {"shfl_w16", shfl<16>}, {"shfl_w8", shfl<8>},
               {"ballot", ballot}, {"match_any", match}};
  for (auto& c : cases) {
    double ns = (seconds(c.kernel, out, k, launches) - base) / ops * 1e9;
    printf("%-10s %7.2f ns per lane per operation, %.2fx the baseline\n", c.name, ns, ns / bar);
  }
  return 0;
}
