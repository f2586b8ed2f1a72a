// Per-operation cost of warp intrinsics of a converged warp under CPU emulation,
// run as a loop over the warp's lanes (the default) or, with CUDA_EMU_LANE_LOOPS=0,
// each lane on a fiber of its own that meets its warp by fiber switches.
// scripts/bench-warp runs this program both ways and prints the ratio; it is not a
// test. No barrier and no shared memory: a program that synchronizes threads runs
// in the warp lock step, on fibers (benches/warp/warp_ops.cu measures that). Each
// kernel runs one 32-thread block per launch, K operations per thread:
//   loop      the same loop with no warp operation (subtracted from the others)
//   shfl_wN   __shfl_xor_sync at width 32, 16 and 8
//   ballot    __ballot_sync
//   match     __match_any_sync
// and prints nanoseconds per lane per operation.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

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
  const int k = 20000, launches = 10;
  const double ops = 32.0 * k * launches;
  const double base = seconds(loop, out, k, launches);
  struct {
    const char* name;
    void (*kernel)(unsigned*, int);
  } cases[] = {{"shfl_w32", shfl<32>}, {"shfl_w16", shfl<16>}, {"shfl_w8", shfl<8>},
               {"ballot", ballot}, {"match_any", match}};
  for (auto& c : cases) {
    const double ns = (seconds(c.kernel, out, k, launches) - base) / ops * 1e9;
    printf("%-10s %7.2f ns per lane per operation\n", c.name, ns);
  }
  unsigned h[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("check %08x\n", h[0] ^ h[31]);
  return 0;
}
