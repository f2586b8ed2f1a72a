// The split cluster barrier: cluster_group::barrier_arrive() returns a token and
// barrier_wait(token) waits until every thread of the cluster has arrived. Work done
// between the two (a local sum) overlaps the wait; writes before the arrive are seen
// by the other blocks after the wait. Also map_shared_rank of a pointer into dynamic
// shared memory at an offset, and query_shared_rank of the mapped pointers.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <utility>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) split(int* out) {
  extern __shared__ int buf[];
  cg::cluster_group c = cg::this_cluster();
  int t = threadIdx.x;
  buf[t] = (int)(c.block_rank() * 100 + t);
  auto token = c.barrier_arrive();
  int local = 0;
  for (int i = 0; i <= t; ++i) local += i;
  c.barrier_wait(std::move(token));
  int sum = local;
  for (unsigned r = 0; r < c.num_blocks(); ++r) {
    int* p = c.map_shared_rank(buf + t, r);
    sum += *p;
    if (t == 5) out[200 + blockIdx.x * 4 + r] = (int)c.query_shared_rank(p);
  }
  out[blockIdx.x * blockDim.x + t] = sum;
  c.sync();
}

int main() {
  int* d;
  cudaMalloc(&d, 300 * sizeof(int));
  cudaMemset(d, 0, 300 * sizeof(int));
  split<<<8, 16, 16 * sizeof(int)>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h[300];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("launch %d sync %d\n", (int)launch, (int)sync);
  for (int b = 0; b < 8; ++b) {
    printf("block %d:", b);
    for (int t = 0; t < 16; ++t) printf(" %d", h[b * 16 + t]);
    printf(" | ranks");
    for (int r = 0; r < 4; ++r) printf(" %d", h[200 + b * 4 + r]);
    printf("\n");
  }
  return 0;
}
