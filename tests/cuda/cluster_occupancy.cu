// Cluster occupancy queries: cudaOccupancyMaxPotentialClusterSize and
// cudaOccupancyMaxActiveClusters for a few block sizes and dynamic shared memory sizes,
// with and without the non-portable cluster size opt-in; launches of clusters of 8
// and 16 large blocks (whether a cluster that size fits in a GPC).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void k(int* out) {
  cg::cluster_group c = cg::this_cluster();
  c.sync();
  if (out) out[0] = 1;
}

void query(const char* what, int threads, size_t shmem, int cluster) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(cluster > 0 ? cluster * 16 : 128);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shmem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster > 0 ? cluster : 1;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = cluster > 0 ? 1 : 0;
  int size = -1, active = -1;
  cudaError_t e1 = cudaOccupancyMaxPotentialClusterSize(&size, k, &config);
  cudaError_t e2 = cudaOccupancyMaxActiveClusters(&active, k, &config);
  cudaGetLastError();
  printf("%s threads %4d shmem %6zu cluster %2d: potential %d (%d) active %d (%d)\n", what,
         threads, shmem, cluster, size, (int)e1, active, (int)e2);
}

void launch(int threads, int cluster, size_t shmem) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(cluster * 4);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shmem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&config, k, (int*)nullptr);
  cudaError_t last = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("launch threads %4d cluster %2d shmem %6zu: %d (%s) last %d sync %d\n", threads, cluster,
         shmem, (int)e, cudaGetErrorName(e), (int)last, (int)sync);
}

int main() {
  int threads[] = {32, 128, 256, 512, 1024};
  size_t shmem[] = {0, 16384, 65536, 200000};
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000);
  for (int pass = 0; pass < 2; ++pass) {
    const char* what = pass ? "non-portable" : "portable";
    for (int t : threads)
      for (size_t s : shmem)
        for (int c : {0, 2, 8, 16}) query(what, t, s, c);
    cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  }
  for (int t : {256, 512, 1024})
    for (int c : {8, 16})
      for (size_t s : {(size_t)0, (size_t)100000, (size_t)200000}) launch(t, c, s);
  return 0;
}
