// Cooperative groups, coalesced groups: coalesced_threads() in divergent branches, its
// members and collectives (ranks are compacted: shfl by rank, ballot over ranks),
// labeled_partition and binary_partition of a tile and of a coalesced group, and the
// warp-aggregated atomic increment built on them. Printed from the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

const int kVals = 12;

__device__ int aggregated_inc(int* counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(counter, static_cast<int>(g.size()));
  return g.shfl(prev, 0) + static_cast<int>(g.thread_rank());
}

__global__ void coalesced(unsigned* out, int* counter, int* slots) {
  unsigned lane = threadIdx.x % 32;
  unsigned* o = out + threadIdx.x * kVals;
  for (int k = 0; k < kVals; ++k) o[k] = 0xffffffffu;
  if (lane % 3 != 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    int v = static_cast<int>(lane * 5 % 7);
    o[0] = g.thread_rank();
    o[1] = g.size();
    o[2] = g.num_threads();
    o[3] = g.shfl(v, 2);
    o[4] = g.shfl_down(v, 1);
    o[5] = g.shfl_up(v, 3);
    o[6] = g.ballot(v > 2);
    o[7] = g.any(v == 6) + 2 * g.all(v < 7);
    o[8] = g.meta_group_rank() * 10 + g.meta_group_size();
    cg::coalesced_group part = cg::labeled_partition(g, v % 3);
    o[9] = part.thread_rank() * 100 + part.size();
    cg::coalesced_group bin = cg::binary_partition(g, v >= 3);
    o[10] = bin.thread_rank() * 100 + bin.size();
    g.sync();
  } else {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = g.thread_rank();
    o[1] = g.size();
  }
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group lp = cg::labeled_partition(t, static_cast<int>(lane / 5));
  cg::thread_block_tile<32> t2 = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group bp = cg::binary_partition(t2, lane > 20);
  o[11] = lp.thread_rank() * 1000000 + lp.size() * 10000 + bp.thread_rank() * 100 + bp.size();
  if (threadIdx.x % 4 != 0) slots[threadIdx.x] = aggregated_inc(counter);
}

int main() {
  const int n = 64;
  unsigned* d;
  int *c, *s;
  cudaMalloc(&d, n * kVals * sizeof(unsigned));
  cudaMalloc(&c, sizeof(int));
  cudaMalloc(&s, n * sizeof(int));
  cudaMemset(c, 0, sizeof(int));
  cudaMemset(s, 0xff, n * sizeof(int));
  coalesced<<<1, n>>>(d, c, s);
  unsigned h[n * kVals];
  int hc, hs[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    std::printf("%02d:", i);
    for (int k = 0; k < kVals; ++k) std::printf(" %x", h[i * kVals + k]);
    std::printf("\n");
  }
  // Which slot each thread got depends on the order the groups reach the atomic: print
  // only that the slots are a permutation.
  int seen[n] = {0}, bad = 0, taken = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 4 == 0) continue;
    if (hs[i] < 0 || hs[i] >= n || seen[hs[i]]++) ++bad;
    ++taken;
  }
  std::printf("counter %d taken %d bad %d\n", hc, taken, bad);
  std::printf("errors %d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
