// Cooperative groups, tiles: tiled_partition<N> / thread_block_tile<N> for N = 32..2 with
// every collective (shfl, shfl_up/down/xor, any, all, ballot, match_any, match_all, sync)
// and member (thread_rank, size, num_threads, meta_group_rank, meta_group_size); a tile
// of a tile; the dynamic tiled_partition(block, n); tiles of a 48-thread block (the last
// warp is partial). Every value is stored and printed by the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

const int kVals = 16;

template <class Tile>
__device__ void probe(const Tile& t, unsigned* o) {
  unsigned r = t.thread_rank();
  int v = static_cast<int>(threadIdx.x * 7 % 11) - 3;
  o[0] = r;
  o[1] = t.size();
  o[2] = t.num_threads();
  o[3] = t.meta_group_rank();
  o[4] = t.meta_group_size();
  o[5] = t.shfl(v, 1) + 100;
  o[6] = t.shfl_up(v, 1) + 100;
  o[7] = t.shfl_down(v, 2) + 100;
  o[8] = t.shfl_xor(v, 1) + 100;
  o[9] = t.any(v == 4);
  o[10] = t.all(v > -4) + 2 * t.all(v > 0);
  o[11] = t.ballot(v % 2 == 0);
  o[12] = t.match_any(v & 3);
  int pred = -1;
  o[13] = t.match_all(v >= -3 ? 5 : 6, pred);
  o[14] = pred;
  t.sync();
  float f = 0.5f * v;
  o[15] = static_cast<unsigned>(static_cast<int>(t.shfl(f, r ^ 1) * 4));
}

__global__ void tiles(unsigned* out) {
  cg::thread_block b = cg::this_thread_block();
  unsigned* o = out + threadIdx.x * 7 * kVals;
  probe(cg::tiled_partition<32>(b), o);
  probe(cg::tiled_partition<16>(b), o + kVals);
  probe(cg::tiled_partition<8>(b), o + 2 * kVals);
  probe(cg::tiled_partition<4>(b), o + 3 * kVals);
  cg::thread_block_tile<2> t2 = cg::tiled_partition<2>(b);
  probe(t2, o + 4 * kVals);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
  probe(cg::tiled_partition<4>(t16), o + 5 * kVals);
  cg::thread_group d = cg::tiled_partition(b, 8);
  unsigned* p = o + 6 * kVals;
  p[0] = d.thread_rank();
  p[1] = d.size();
  p[2] = d.size() + 1;
  d.sync();
  cg::thread_group d4 = cg::tiled_partition(d, 4);
  p[3] = d4.thread_rank();
  p[4] = d4.size();
  for (int k = 5; k < kVals; ++k) p[k] = 0;
}

__global__ void partial(unsigned* out) {
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned* o = out + threadIdx.x * 6;
  o[0] = t.thread_rank();
  o[1] = t.size();
  o[2] = t.num_threads();
  o[3] = t.meta_group_size();
  o[4] = t.ballot(1);
  o[5] = t.all(1) * 10 + t.any(threadIdx.x == 40);
}

int main() {
  const int n = 64;
  unsigned* d;
  cudaMalloc(&d, n * 7 * kVals * sizeof(unsigned));
  tiles<<<1, n>>>(d);
  static unsigned h[n * 7 * kVals];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[] = {"t32", "t16", "t8", "t4", "t2", "t16/4", "dyn8"};
  for (int which = 0; which < 7; ++which)
    for (int i = 0; i < n; ++i) {
      unsigned* o = h + (i * 7 + which) * kVals;
      std::printf("%s %02d:", names[which], i);
      for (int k = 0; k < kVals; ++k) std::printf(" %x", o[k]);
      std::printf("\n");
    }
  partial<<<1, 48>>>(d);
  unsigned q[48 * 6];
  cudaMemcpy(q, d, sizeof q, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 48; i += 7)
    std::printf("partial %02d: %u %u %u %u %x %u\n", i, q[i * 6], q[i * 6 + 1], q[i * 6 + 2],
                q[i * 6 + 3], q[i * 6 + 4], q[i * 6 + 5]);
  std::printf("partial 47: %u %u %u %u %x %u\n", q[47 * 6], q[47 * 6 + 1], q[47 * 6 + 2],
              q[47 * 6 + 3], q[47 * 6 + 4], q[47 * 6 + 5]);
  std::printf("errors %d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
