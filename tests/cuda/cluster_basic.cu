// Thread block clusters, ranks and shapes: cluster_group members (thread_rank,
// block_rank, num_blocks, num_threads, size, dim_blocks, block_index, thread_index,
// dim_threads) for a 1D cluster given by __cluster_dims__ with a <<<>>> launch, a 2D
// and a 3D cluster given at run time through cudaLaunchKernelEx with
// cudaLaunchAttributeClusterDimension, and this_cluster() in a launch without
// clusters (one block a cluster). Every thread writes what it sees; the host prints.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

#define FIELDS 12

// Members the CUDA headers may not have: 999999 where a member is missing.
template <class G>
__device__ auto thread_index_of(const G& g, int) -> decltype(g.thread_index()) { return g.thread_index(); }
template <class G>
__device__ dim3 thread_index_of(const G&, long) { return dim3(99, 99, 99); }
template <class G>
__device__ auto dim_threads_of(const G& g, int) -> decltype(g.dim_threads()) { return g.dim_threads(); }
template <class G>
__device__ dim3 dim_threads_of(const G&, long) { return dim3(99, 99, 99); }
template <class G>
__device__ auto size_of(const G& g, int) -> decltype(g.size()) { return g.size(); }
template <class G>
__device__ unsigned size_of(const G&, long) { return 999999; }

__device__ void record(unsigned* out) {
  cg::cluster_group c = cg::this_cluster();
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned* o = out + (block * blockDim.x * blockDim.y * blockDim.z + t) * FIELDS;
  dim3 db = c.dim_blocks();
  dim3 bi = c.block_index();
  dim3 ti = thread_index_of(c, 0);
  dim3 dt = dim_threads_of(c, 0);
  o[0] = c.thread_rank();
  o[1] = c.block_rank();
  o[2] = c.num_blocks();
  o[3] = c.num_threads();
  o[4] = size_of(c, 0);
  o[5] = db.x * 10000 + db.y * 100 + db.z;
  o[6] = bi.x * 10000 + bi.y * 100 + bi.z;
  o[7] = ti.x * 10000 + ti.y * 100 + ti.z;
  o[8] = dt.x * 10000 + dt.y * 100 + dt.z;
  o[9] = blockIdx.x * 10000 + blockIdx.y * 100 + blockIdx.z;
  o[10] = threadIdx.x * 10000 + threadIdx.y * 100 + threadIdx.z;
  c.sync();
  o[11] = 7;
}

__global__ void __cluster_dims__(2, 1, 1) fixed_1d(unsigned* out) { record(out); }
__global__ void __cluster_dims__(3, 1, 1) fixed_three(unsigned* out) { record(out); }
__global__ void runtime_shape(unsigned* out) { record(out); }

void show(const char* what, dim3 grid, dim3 block, unsigned* d, cudaError_t launch) {
  cudaError_t sync = cudaDeviceSynchronize();
  unsigned threads = block.x * block.y * block.z;
  unsigned n = grid.x * grid.y * grid.z * threads;
  unsigned* h = new unsigned[n * FIELDS];
  cudaMemcpy(h, d, n * FIELDS * sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%s: launch %d sync %d\n", what, (int)launch, (int)sync);
  unsigned long long sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned* o = h + i * FIELDS;
    for (int f = 0; f < FIELDS; ++f) sum = sum * 31 + o[f];
    // Every block's first and last thread, and every thread of the first block.
    unsigned t = i % threads;
    if (t == 0 || t == threads - 1 || i < threads)
      printf("  blk %06u thr %06u: rank %u brank %u nblk %u nthr %u size %u dimb %06u bidx %06u tidx %06u dimt %06u done %u\n",
             o[9], o[10], o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[11]);
  }
  printf("  hash %llu\n", sum);
  delete[] h;
}

cudaError_t launch_ex(dim3 grid, dim3 block, dim3 cluster, unsigned* d) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster.x;
  attr[0].val.clusterDim.y = cluster.y;
  attr[0].val.clusterDim.z = cluster.z;
  config.attrs = attr;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, runtime_shape, d);
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 4096 * FIELDS * sizeof(unsigned));

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  fixed_1d<<<6, 4>>>(d);
  show("cluster_dims(2,1,1) <<<6,4>>>", dim3(6), dim3(4), d, cudaGetLastError());

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  fixed_three<<<dim3(3, 2), dim3(2, 2)>>>(d);
  show("cluster_dims(3,1,1) <<<(3,2),(2,2)>>>", dim3(3, 2), dim3(2, 2), d, cudaGetLastError());

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  cudaError_t e = launch_ex(dim3(4, 4), dim3(3, 2), dim3(2, 2, 1), d);
  show("ex cluster (2,2,1) grid (4,4) block (3,2)", dim3(4, 4), dim3(3, 2), d, e);

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  e = launch_ex(dim3(2, 2, 4), dim3(2, 1, 2), dim3(1, 2, 2), d);
  show("ex cluster (1,2,2) grid (2,2,4) block (2,1,2)", dim3(2, 2, 4), dim3(2, 1, 2), d, e);

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  e = launch_ex(dim3(8), dim3(32), dim3(8, 1, 1), d);
  show("ex cluster (8,1,1) grid 8 block 32", dim3(8), dim3(32), d, e);

  cudaMemset(d, 0, 4096 * FIELDS * sizeof(unsigned));
  runtime_shape<<<dim3(2, 2), 3>>>(d);
  show("no cluster <<<(2,2),3>>>", dim3(2, 2), dim3(3), d, cudaGetLastError());

  cudaFree(d);
  return 0;
}
