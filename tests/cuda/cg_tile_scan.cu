// Cooperative groups, cg::inclusive_scan and cg::exclusive_scan over tiles of 64 and 128
// threads (more than a warp): the order of the combining steps, read off Mix (neither
// associative nor commutative, a fingerprint of each thread's tree) and Left/Right (2a + b
// and a + 2b with one thread holding 1: 2 to the power of how often its value was the
// left/right operand); a float scan whose result depends on the order; int scans.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
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

const int kVals = 6;
__host__ __device__ inline int leaf(int i) {
  const int l[] = {0, 1, 2, 31, 32, 33, 63, 64, 95, 127};
  return l[i];
}
const int kNLeaves = 10;

__device__ unsigned char lg(unsigned long long a) {
  return a ? static_cast<unsigned char>(63 - __clzll(a)) + (a & (a - 1) ? 100 : 0) : 255;
}

template <class G>
__device__ void scans(const G& g, unsigned long long* o, unsigned char* d) {
  unsigned r = g.thread_rank();
  unsigned tid = threadIdx.x;
  int v = static_cast<int>((tid * 13 + 5) % 17) - 8;
  float f = (tid % 3 == 0 ? 1e8f : 1.0f) * (1.0f + tid * 0.37f) * (tid % 7 == 1 ? -1.0f : 1.0f);
  o[0] = cg::inclusive_scan(g, static_cast<unsigned long long>(r + 1), Mix());
  o[1] = cg::exclusive_scan(g, static_cast<unsigned long long>(r + 1), Mix());
  o[2] = __float_as_uint(cg::inclusive_scan(g, f));
  o[3] = __float_as_uint(cg::exclusive_scan(g, f, cg::plus<float>()));
  o[4] = static_cast<unsigned>(cg::inclusive_scan(g, v));
  o[5] = static_cast<unsigned>(cg::exclusive_scan(g, v, cg::greater<int>()));
  for (int i = 0; i < kNLeaves; ++i) {
    unsigned long long one = r == static_cast<unsigned>(leaf(i)) ? 1ull : 0ull;
    d[4 * i] = lg(cg::inclusive_scan(g, one, Left()));
    d[4 * i + 1] = lg(cg::inclusive_scan(g, one, Right()));
    d[4 * i + 2] = lg(cg::exclusive_scan(g, one, Left()));
    d[4 * i + 3] = lg(cg::exclusive_scan(g, one, Right()));
  }
}

__global__ void kernel(unsigned long long* out, unsigned char* deps) {
  cg::thread_block b = cg::this_thread_block();
  scans(cg::tiled_partition<64>(b), out + threadIdx.x * 2 * kVals, deps + threadIdx.x * 8 * kNLeaves);
  scans(cg::tiled_partition<128>(b), out + threadIdx.x * 2 * kVals + kVals,
        deps + threadIdx.x * 8 * kNLeaves + 4 * kNLeaves);
}

int main() {
  const int n = 256;
  unsigned long long* d;
  unsigned char* dd;
  cudaMalloc(&d, n * 2 * kVals * sizeof(unsigned long long));
  cudaMalloc(&dd, n * 8 * kNLeaves);
  kernel<<<1, n>>>(d, dd);
  static unsigned long long h[n * 2 * kVals];
  static unsigned char hd[n * 8 * kNLeaves];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d\n", static_cast<int>(cudaGetLastError()),
              static_cast<int>(cudaDeviceSynchronize()));
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < n; ++i) {
      std::printf("t%d %03d:", s ? 128 : 64, i);
      for (int k = 0; k < kVals; ++k) std::printf(" %llx", h[(i * 2 + s) * kVals + k]);
      for (int k = 0; k < kNLeaves; ++k) {
        if (leaf(k) >= (s ? 128 : 64)) continue;
        unsigned char* p = hd + i * 8 * kNLeaves + s * 4 * kNLeaves + 4 * k;
        std::printf(" %d/%d/%d/%d", p[0], p[1], p[2], p[3]);
      }
      std::printf("\n");
    }
  return 0;
}
