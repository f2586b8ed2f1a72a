// Cooperative groups, tiles of tiles of more than a warp: tiled_partition<32> and <16> of
// a 64-thread tile, tiled_partition<64> of a 128-thread tile, and a tile assigned to
// thread_block_tile<64> (no parent type; its thread_rank, size, sync). A tile of more than
// 32 threads does not convert to thread_group (nvcc 13.0: "no suitable user-defined
// conversion"). Block of 256 threads; printed by the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

const int kVals = 12;

__global__ void nested(unsigned* out) {
  __shared__ int scratch[256];
  cg::thread_block b = cg::this_thread_block();
  unsigned* o = out + threadIdx.x * kVals;
  auto t64 = cg::tiled_partition<64>(b);
  auto t32 = cg::tiled_partition<32>(t64);
  o[0] = t32.thread_rank();
  o[1] = t32.meta_group_rank();
  o[2] = t32.meta_group_size();
  o[3] = t32.shfl(static_cast<int>(threadIdx.x), 0);
  auto t16 = cg::tiled_partition<16>(t64);
  o[4] = t16.meta_group_rank() * 100 + t16.meta_group_size();
  auto t128 = cg::tiled_partition<128>(b);
  auto s64 = cg::tiled_partition<64>(t128);
  o[5] = static_cast<unsigned>(s64.thread_rank());
  o[6] = static_cast<unsigned>(s64.meta_group_rank() * 100 + s64.meta_group_size());
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  s64.sync();
  o[7] = static_cast<unsigned>(scratch[threadIdx.x ^ 63]);
  s64.sync();
  cg::thread_block_tile<64> g = t64;
  o[8] = static_cast<unsigned>(g.thread_rank());
  o[9] = static_cast<unsigned>(g.size());
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x) * 5;
  g.sync();
  o[10] = static_cast<unsigned>(scratch[threadIdx.x ^ 32]);
  o[11] = static_cast<unsigned>(s64.shfl(static_cast<int>(threadIdx.x), 63));
}

int main() {
  const int n = 256;
  unsigned* d;
  cudaMalloc(&d, n * kVals * sizeof(unsigned));
  nested<<<1, n>>>(d);
  static unsigned h[n * kVals];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d\n", static_cast<int>(cudaGetLastError()),
              static_cast<int>(cudaDeviceSynchronize()));
  for (int i = 0; i < n; ++i) {
    std::printf("%03d:", i);
    for (int k = 0; k < kVals; ++k) std::printf(" %x", h[i * kVals + k]);
    std::printf("\n");
  }
  return 0;
}
