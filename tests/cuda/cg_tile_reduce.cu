// Cooperative groups, cg::reduce over tiles of more than a warp (64 ... 1024 threads): the
// order of the combining steps, read off operators that are neither associative nor
// commutative. Mix (a * 1000003 + b * 7 + 1) fingerprints the whole tree each thread ends
// with; Left (2a + b) and Right (a + 2b) with one thread holding 1 and the others 0 give
// 2 to the power of how often that thread's value was the left (right) operand on the way
// to each thread's result (lanes 0, 1, 2 and 31 of each warp printed). Then float and double sums whose value depends on the order,
// and int plus/less/greater, unsigned bit_and/or/xor. Printed by the host.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

struct Mix {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a * 1000003ull + b * 7ull + 1ull;
  }
};
struct Left {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return 2 * a + b;
  }
};
struct Right {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a + 2 * b;
  }
};

const int kVals = 10;

template <class G>
__device__ void values(const G& g, unsigned long long* o) {
  unsigned r = g.thread_rank();
  unsigned tid = threadIdx.x;
  int v = static_cast<int>((tid * 13 + 5) % 17) - 8;
  unsigned u = 0x9e3779b9u * (tid + 1);
  float f = (tid % 3 == 0 ? 1e8f : 1.0f) * (1.0f + tid * 0.37f) * (tid % 7 == 1 ? -1.0f : 1.0f);
  double dv = (tid % 5 == 0 ? 1e17 : 1.0) * (v / 10.0 + r / 1000.0);
  o[0] = cg::reduce(g, static_cast<unsigned long long>(r + 1), Mix());
  o[1] = __float_as_uint(cg::reduce(g, f, cg::plus<float>()));
  o[2] = __double_as_longlong(cg::reduce(g, dv, cg::plus<double>()));
  o[3] = static_cast<unsigned>(cg::reduce(g, v, cg::plus<int>()));
  o[4] = static_cast<unsigned>(cg::reduce(g, v, cg::less<int>()));
  o[5] = static_cast<unsigned>(cg::reduce(g, v, cg::greater<int>()));
  o[6] = cg::reduce(g, u, cg::bit_and<unsigned>());
  o[7] = cg::reduce(g, u, cg::bit_or<unsigned>());
  o[8] = cg::reduce(g, u, cg::bit_xor<unsigned>());
  o[9] = __float_as_uint(cg::reduce(g, f * 0.5f + 3.0f, [](float a, float b) { return a + b; }));
}

// For each leaf k in `leaves`, each thread's log2 of Left's and of Right's result.
template <class G>
__device__ void depths(const G& g, const int* leaves, int nleaves, unsigned char* o) {
  unsigned r = g.thread_rank();
  for (int i = 0; i < nleaves; ++i) {
    unsigned long long one = r == static_cast<unsigned>(leaves[i]) ? 1ull : 0ull;
    unsigned long long a = cg::reduce(g, one, Left());
    unsigned long long b = cg::reduce(g, one, Right());
    o[2 * i] = a ? static_cast<unsigned char>(63 - __clzll(a)) + (a & (a - 1) ? 100 : 0) : 255;
    o[2 * i + 1] = b ? static_cast<unsigned char>(63 - __clzll(b)) + (b & (b - 1) ? 100 : 0) : 255;
  }
}

__device__ int g_leaves[128];

__global__ void order(unsigned long long* vals, unsigned char* deps, int nleaves) {
  cg::thread_block b = cg::this_thread_block();
  unsigned long long* o = vals + threadIdx.x * 5 * kVals;
  values(cg::tiled_partition<64>(b), o);
  values(cg::tiled_partition<128>(b), o + kVals);
  values(cg::tiled_partition<256>(b), o + 2 * kVals);
  values(cg::tiled_partition<512>(b), o + 3 * kVals);
  values(cg::tiled_partition<1024>(b), o + 4 * kVals);
  unsigned char* p = deps + threadIdx.x * 4 * 2 * nleaves;
  depths(cg::tiled_partition<64>(b), g_leaves, nleaves, p);
  depths(cg::tiled_partition<128>(b), g_leaves, nleaves, p + 2 * nleaves);
  depths(cg::tiled_partition<256>(b), g_leaves, nleaves, p + 4 * nleaves);
  depths(cg::tiled_partition<1024>(b), g_leaves, nleaves, p + 6 * nleaves);
}

int main() {
  const int n = 1024;
  // Leaves: every rank of the first 64, then lanes 0, 1 and 31 of warps 2..31 ... as many as fit.
  int leaves[128];
  int nl = 0;
  for (int k = 0; k < 64; ++k) leaves[nl++] = k;
  for (int w = 2; w < 32 && nl + 2 <= 128; ++w) {
    leaves[nl++] = w * 32;
    leaves[nl++] = w * 32 + 31;
  }
  cudaMemcpyToSymbol(g_leaves, leaves, sizeof leaves);
  unsigned long long* dv;
  unsigned char* dd;
  cudaMalloc(&dv, n * 5 * kVals * sizeof(unsigned long long));
  cudaMalloc(&dd, n * 4 * 2 * nl);
  order<<<1, n>>>(dv, dd, nl);
  static unsigned long long hv[n * 5 * kVals];
  static unsigned char hd[n * 4 * 2 * 128];
  cudaMemcpy(hv, dv, n * 5 * kVals * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, n * 4 * 2 * nl, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d leaves %d\n", static_cast<int>(cudaGetLastError()),
              static_cast<int>(cudaDeviceSynchronize()), nl);
  const int sizes[] = {64, 128, 256, 512, 1024};
  for (int s = 0; s < 5; ++s)
    for (int i = 0; i < n; ++i) {
      if (i % 32 > 2 && i % 32 != 31) continue;
      unsigned long long* o = hv + (i * 5 + s) * kVals;
      std::printf("t%d %04d:", sizes[s], i);
      for (int k = 0; k < kVals; ++k) std::printf(" %llx", o[k]);
      std::printf("\n");
    }
  // Depths: one line per (tile size, leaf, thread of the first tile), "L/R" pairs.
  const int dsizes[] = {64, 128, 256, 1024};
  for (int s = 0; s < 4; ++s)
    for (int i = 0; i < dsizes[s]; ++i) {
      if (dsizes[s] > 128 && i % 32 > 1 && i % 32 != 31) continue;
      unsigned char* p = hd + i * 4 * 2 * nl + s * 2 * nl;
      std::printf("depth t%d %04d:", dsizes[s], i);
      for (int k = 0; k < nl; ++k) {
        if (leaves[k] >= dsizes[s]) continue;
        std::printf(" %d/%d", p[2 * k], p[2 * k + 1]);
      }
      std::printf("\n");
    }
  return 0;
}
