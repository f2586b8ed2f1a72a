// Distributed shared memory: blocks of a cluster read and write each other's shared
// memory through cluster_group::map_shared_rank, ordered by cluster.sync(). A ring
// exchange of static __shared__ arrays (each block reads its right neighbour's), a
// distributed histogram in dynamic shared memory (the bins spread over the cluster's
// blocks, atomicAdd on the remote block's bins, as the programming guide describes),
// and a 2D cluster where each block sums one value from every block of its cluster.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) ring(const int* in, int* out) {
  __shared__ int mine[64];
  cg::cluster_group c = cg::this_cluster();
  int t = threadIdx.x;
  mine[t] = in[blockIdx.x * 64 + t] * 3 + (int)c.block_rank();
  c.sync();
  unsigned right = (c.block_rank() + 1) % c.num_blocks();
  int* theirs = c.map_shared_rank(mine, right);
  out[blockIdx.x * 64 + t] = theirs[63 - t] - mine[t];
  c.sync();
}

// Bins [rank * per, (rank + 1) * per) live in block `rank`'s shared memory.
__global__ void histogram(const int* values, int n, int bins, int* hist) {
  extern __shared__ int part[];
  cg::cluster_group c = cg::this_cluster();
  int per = bins / c.num_blocks();
  for (int i = threadIdx.x; i < per; i += blockDim.x) part[i] = 0;
  c.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    int bin = v < 0 ? 0 : (v >= bins ? bins - 1 : v);
    int* owner = c.map_shared_rank(part, bin / per);
    atomicAdd(owner + bin % per, 1);
  }
  c.sync();
  int* global_part = hist + c.block_rank() * per;
  for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(global_part + i, part[i]);
}

__global__ void __cluster_dims__(2, 2, 1) gather(int* out) {
  __shared__ int value;
  cg::cluster_group c = cg::this_cluster();
  if (threadIdx.x == 0) value = (blockIdx.x + 1) * 100 + (blockIdx.y + 1);
  c.sync();
  if (threadIdx.x < c.num_blocks()) {
    int v = *c.map_shared_rank(&value, threadIdx.x);
    atomicAdd(out + blockIdx.y * gridDim.x + blockIdx.x, v * (int)(threadIdx.x + 1));
  }
  c.sync();
}

int main() {
  const int blocks = 8;
  int h_in[blocks * 64], h_out[blocks * 64];
  for (int i = 0; i < blocks * 64; ++i) h_in[i] = (i * 37) % 101;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  ring<<<blocks, 64>>>(d_in, d_out);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  printf("ring: launch %d sync %d\n", (int)launch, (int)sync);
  for (int b = 0; b < blocks; ++b) {
    printf("  block %d:", b);
    for (int t = 0; t < 64; t += 9) printf(" %d", h_out[b * 64 + t]);
    printf("\n");
  }

  const int n = 20000, bins = 96;
  int* h_values = new int[n];
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    h_values[i] = (int)((x >> 16) % 110) - 5;
  }
  int *d_values, *d_hist;
  cudaMalloc(&d_values, n * sizeof(int));
  cudaMalloc(&d_hist, bins * sizeof(int));
  cudaMemcpy(d_values, h_values, n * sizeof(int), cudaMemcpyHostToDevice);
  for (int cluster = 1; cluster <= 8; cluster *= 2) {
    cudaMemset(d_hist, 0, bins * sizeof(int));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(16);
    config.blockDim = dim3(128);
    config.dynamicSmemBytes = bins / cluster * sizeof(int);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&config, histogram, (const int*)d_values, n, bins, d_hist);
    sync = cudaDeviceSynchronize();
    int h_hist[bins];
    cudaMemcpy(h_hist, d_hist, sizeof h_hist, cudaMemcpyDeviceToHost);
    long total = 0;
    printf("histogram cluster %d: launch %d sync %d\n ", cluster, (int)e, (int)sync);
    for (int b = 0; b < bins; ++b) {
      total += h_hist[b];
      printf(" %d", h_hist[b]);
    }
    printf("\n  total %ld\n", total);
  }

  int* d_g;
  cudaMalloc(&d_g, 16 * sizeof(int));
  cudaMemset(d_g, 0, 16 * sizeof(int));
  gather<<<dim3(4, 4), 32>>>(d_g);
  launch = cudaGetLastError();
  sync = cudaDeviceSynchronize();
  int h_g[16];
  cudaMemcpy(h_g, d_g, sizeof h_g, cudaMemcpyDeviceToHost);
  printf("gather: launch %d sync %d\n ", (int)launch, (int)sync);
  for (int i = 0; i < 16; ++i) printf(" %d", h_g[i]);
  printf("\n");
  delete[] h_values;
  return 0;
}
