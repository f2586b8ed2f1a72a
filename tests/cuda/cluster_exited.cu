// cluster.sync() with threads that have returned: the cluster barrier waits for the
// threads of the cluster that have not exited. First some threads of each block
// return before the barrier, then a whole block of each cluster returns at once (the
// other blocks still meet at cluster.sync and read each other's shared memory).
// stdout is unbuffered, so a hang (killed by the timeout) keeps the lines before it.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) some_threads(int* out) {
  __shared__ int v[32];
  cg::cluster_group c = cg::this_cluster();
  int t = threadIdx.x;
  if (t >= 20) return;
  v[t] = blockIdx.x * 100 + t;
  c.sync();
  int* other = c.map_shared_rank(v, c.block_rank() ^ 1);
  out[blockIdx.x * 32 + t] = other[19 - t];
  c.sync();
}

__global__ void __cluster_dims__(4, 1, 1) whole_block(int* out) {
  __shared__ int v;
  cg::cluster_group c = cg::this_cluster();
  if (c.block_rank() == 3) return;
  if (threadIdx.x == 0) v = blockIdx.x + 1;
  c.sync();
  int* other = c.map_shared_rank(&v, (c.block_rank() + 1) % 3);
  if (threadIdx.x == 0) out[blockIdx.x] = *other;
  c.sync();
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  int* d;
  cudaMalloc(&d, 256 * sizeof(int));
  cudaMemset(d, 0xff, 256 * sizeof(int));
  some_threads<<<4, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h[256];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("some threads: launch %d sync %d\n", (int)launch, (int)sync);
  for (int b = 0; b < 4; ++b) {
    printf(" ");
    for (int t = 0; t < 32; ++t) printf(" %d", h[b * 32 + t]);
    printf("\n");
  }
  cudaMemset(d, 0xff, 256 * sizeof(int));
  whole_block<<<8, 64>>>(d);
  launch = cudaGetLastError();
  sync = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("whole block: launch %d sync %d\n ", (int)launch, (int)sync);
  for (int b = 0; b < 8; ++b) printf(" %d", h[b]);
  printf("\n");
  return 0;
}
