// Cooperative groups, a tile of 64 threads in a block of 96: the second tile has only 32
// threads. What its members say (num_threads, meta_group_size), and whether its sync and a
// cg::reduce over it complete (the run has a 20 s limit) and give what.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void partial(unsigned* out) {
  cg::thread_block b = cg::this_thread_block();
  auto t = cg::tiled_partition<64>(b);
  unsigned* o = out + threadIdx.x * 6;
  o[0] = t.thread_rank();
  o[1] = static_cast<unsigned>(t.num_threads());
  o[2] = static_cast<unsigned>(t.meta_group_rank());
  o[3] = static_cast<unsigned>(t.meta_group_size());
  t.sync();
  o[4] = 1;
  o[5] = static_cast<unsigned>(cg::reduce(t, static_cast<int>(threadIdx.x) + 1, cg::plus<int>()));
}

int main() {
  const int n = 96;
  unsigned* d;
  cudaMalloc(&d, n * 6 * sizeof(unsigned));
  cudaMemset(d, 0xff, n * 6 * sizeof(unsigned));
  partial<<<1, n>>>(d);
  std::printf("launch %d\n", static_cast<int>(cudaGetLastError()));
  std::fflush(stdout);
  int e = static_cast<int>(cudaDeviceSynchronize());
  static unsigned h[n * 6];
  int c = static_cast<int>(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("sync %d copy %d\n", e, c);
  for (int i = 0; i < n; i += 31) {
    std::printf("%02d:", i);
    for (int k = 0; k < 6; ++k) std::printf(" %x", h[i * 6 + k]);
    std::printf("\n");
  }
  return 0;
}
