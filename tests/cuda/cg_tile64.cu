// Cooperative groups, tiles of more than a warp (thread_block_tile<64..1024>): the members
// thread_rank, num_threads, size, meta_group_rank, meta_group_size (and the sizes of the
// types they return), sync as a barrier of the tile's threads only (a shared-memory
// exchange between the tile's warps, tiles of one block at different points), shfl from
// one source rank for the whole tile, any and all, cg::sync(tile). Block of 256 threads: tiles of 64, 128, 256; a block of 1024: tiles of
// 512 and 1024. Every value is stored and printed by the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

const int kVals = 14;

template <class Tile>
__device__ void probe(const Tile& t, unsigned* o, int* shared) {
  unsigned r = t.thread_rank();
  unsigned tid = threadIdx.x;
  int v = static_cast<int>(tid * 7 % 11) - 3;
  o[0] = r;
  o[1] = static_cast<unsigned>(t.num_threads());
  o[2] = static_cast<unsigned>(t.size());
  o[3] = static_cast<unsigned>(t.meta_group_rank());
  o[4] = static_cast<unsigned>(t.meta_group_size());
  // The tile's barrier: every thread writes, the tile syncs, each reads the value of
  // the thread at the other end of the tile (another warp).
  shared[tid] = v * 3 + 1;
  t.sync();
  unsigned first = tid - r;
  o[5] = static_cast<unsigned>(shared[first + (t.num_threads() - 1 - r)]);
  t.sync();
  // shfl: one source rank for every thread of the tile (the meta group rank + 3).
  unsigned src = static_cast<unsigned>(t.meta_group_rank()) + 3;
  o[6] = static_cast<unsigned>(t.shfl(v, src) + 100);
  double d = 0.25 * tid + 1.0;
  o[7] = static_cast<unsigned>(t.shfl(d, static_cast<unsigned>(t.num_threads()) - 1) * 4);
  o[8] = t.any(v == 4 && tid % 64 == 15);
  o[9] = t.any(0) + 2 * t.any(1);
  o[10] = t.all(v > -4) + 2 * t.all(v > 0) + 4 * t.all(static_cast<int>(r) != 40);
  cg::sync(t);
  struct Pair {
    int a;
    short b;
  } p{static_cast<int>(tid), static_cast<short>(-static_cast<int>(tid))};
  Pair q = t.shfl(p, 1);
  o[11] = static_cast<unsigned>(q.a * 1000 + q.b);
  o[12] = sizeof(t.thread_rank()) * 100 + sizeof(t.num_threads()) * 10 + sizeof(t.size());
  o[13] = sizeof(t.meta_group_rank()) * 10 + sizeof(t.meta_group_size());
}

// Tiles of different sizes in one block, each thread in the tile of its block's rank.
__global__ void small_block(unsigned* out) {
  __shared__ int shared[256];
  cg::thread_block b = cg::this_thread_block();
  unsigned* o = out + threadIdx.x * 4 * kVals;
  probe(cg::tiled_partition<64>(b), o, shared);
  probe(cg::tiled_partition<128>(b), o + kVals, shared);
  probe(cg::tiled_partition<256>(b), o + 2 * kVals, shared);
  auto t64 = cg::tiled_partition<64>(b);
  // Tiles going at different speeds: the first 64-thread tile loops more (only its own
  // barrier holds it), the others read what their own tile wrote.
  int rounds = t64.meta_group_rank() == 0 ? 5 : 2;
  int acc = 0;
  for (int k = 0; k < rounds; ++k) {
    shared[threadIdx.x] = k * 1000 + static_cast<int>(threadIdx.x);
    t64.sync();
    acc += shared[(threadIdx.x ^ 32)];
    t64.sync();
  }
  o[3 * kVals] = static_cast<unsigned>(acc);
}

__global__ void big_block(unsigned* out) {
  __shared__ int shared[1024];
  cg::thread_block b = cg::this_thread_block();
  unsigned* o = out + threadIdx.x * 2 * kVals;
  probe(cg::tiled_partition<512>(b), o, shared);
  probe(cg::tiled_partition<1024>(b), o + kVals, shared);
}

int main() {
  const int n = 256, nb = 1024;
  unsigned* d;
  cudaMalloc(&d, nb * 2 * kVals * sizeof(unsigned));
  cudaMemset(d, 0, nb * 2 * kVals * sizeof(unsigned));
  small_block<<<2, n>>>(d);
  static unsigned h[nb * 4 * kVals];
  cudaMemcpy(h, d, n * 4 * kVals * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("small launch %d sync %d\n", static_cast<int>(cudaGetLastError()),
              static_cast<int>(cudaDeviceSynchronize()));
  const char* names[] = {"t64", "t128", "t256", "rounds"};
  for (int which = 0; which < 4; ++which)
    for (int i = 0; i < n; ++i) {
      unsigned* o = h + (i * 4 + which) * kVals;
      int count = which == 3 ? 1 : kVals;
      std::printf("%s %03d:", names[which], i);
      for (int k = 0; k < count; ++k) std::printf(" %x", o[k]);
      std::printf("\n");
    }
  big_block<<<1, nb>>>(d);
  cudaMemcpy(h, d, nb * 2 * kVals * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("big launch %d sync %d\n", static_cast<int>(cudaGetLastError()),
              static_cast<int>(cudaDeviceSynchronize()));
  for (int which = 0; which < 2; ++which)
    for (int i = 0; i < nb; ++i) {
      if (i % 32 != 0 && i % 32 != 31) continue;
      unsigned* o = h + (i * 2 + which) * kVals;
      std::printf("%s %04d:", which ? "t1024" : "t512", i);
      for (int k = 0; k < kVals; ++k) std::printf(" %x", o[k]);
      std::printf("\n");
    }
  return 0;
}
