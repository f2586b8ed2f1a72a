// Cooperative groups, cooperative_groups/reduce.h and scan.h: cg::reduce with plus, less,
// greater, bit_and, bit_or, bit_xor on tiles of 32, 16 and 8 and on a coalesced group;
// float sums whose result depends on the order of the additions; inclusive_scan and
// exclusive_scan (default plus, and an operator); and an order-revealing operator (not
// associative, not commutative) whose results give away the combining tree.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

const int kVals = 16;

struct Mix {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a * 1000003ull + b * 7ull + 1ull;
  }
};

template <class G>
__device__ void probe(const G& g, unsigned long long* o) {
  unsigned r = g.thread_rank();
  int v = static_cast<int>((threadIdx.x * 13 + 5) % 17) - 8;
  unsigned u = 0x9e3779b9u * (threadIdx.x + 1);
  float f = (threadIdx.x % 3 == 0 ? 1e8f : 1.0f) * (1.0f + threadIdx.x * 0.37f);
  o[0] = static_cast<unsigned long long>(cg::reduce(g, v, cg::plus<int>()));
  o[1] = static_cast<unsigned long long>(cg::reduce(g, v, cg::less<int>()));
  o[2] = static_cast<unsigned long long>(cg::reduce(g, v, cg::greater<int>()));
  o[3] = cg::reduce(g, u, cg::bit_and<unsigned>());
  o[4] = cg::reduce(g, u, cg::bit_or<unsigned>());
  o[5] = cg::reduce(g, u, cg::bit_xor<unsigned>());
  float fs = cg::reduce(g, f, cg::plus<float>());
  o[6] = __float_as_uint(fs);
  o[7] = cg::reduce(g, static_cast<unsigned long long>(r + 1), Mix());
  o[8] = static_cast<unsigned long long>(cg::inclusive_scan(g, v));
  o[9] = static_cast<unsigned long long>(cg::exclusive_scan(g, v));
  o[10] = __float_as_uint(cg::inclusive_scan(g, f));
  o[11] = __float_as_uint(cg::exclusive_scan(g, f, cg::plus<float>()));
  o[12] = cg::inclusive_scan(g, static_cast<unsigned long long>(r + 1), Mix());
  o[13] = cg::exclusive_scan(g, static_cast<unsigned long long>(r + 1), Mix());
  o[14] = static_cast<unsigned long long>(cg::inclusive_scan(g, v, cg::greater<int>()));
  o[15] = __double_as_longlong(cg::reduce(g, v / 10.0 + r / 1000.0, cg::plus<double>()));
}

__global__ void kernel(unsigned long long* out) {
  cg::thread_block b = cg::this_thread_block();
  unsigned long long* o = out + threadIdx.x * 4 * kVals;
  probe(cg::tiled_partition<32>(b), o);
  probe(cg::tiled_partition<16>(b), o + kVals);
  probe(cg::tiled_partition<8>(b), o + 2 * kVals);
  if (threadIdx.x % 5 != 2) probe(cg::coalesced_threads(), o + 3 * kVals);
}

int main() {
  const int n = 64;
  unsigned long long* d;
  cudaMalloc(&d, n * 4 * kVals * sizeof(unsigned long long));
  cudaMemset(d, 0, n * 4 * kVals * sizeof(unsigned long long));
  kernel<<<1, n>>>(d);
  static unsigned long long h[n * 4 * kVals];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[] = {"t32", "t16", "t8", "coal"};
  for (int which = 0; which < 4; ++which)
    for (int i = 0; i < n; ++i) {
      unsigned long long* o = h + (i * 4 + which) * kVals;
      std::printf("%s %02d:", names[which], i);
      for (int k = 0; k < kVals; ++k) std::printf(" %llx", o[k]);
      std::printf("\n");
    }
  std::printf("errors %d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
