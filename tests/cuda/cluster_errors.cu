// Launch errors of thread block clusters, as the runtime reports them: a grid that is
// not a multiple of the cluster shape (from __cluster_dims__ and from the launch
// attribute), clusters of 8 (portable), 16 (allowed only after
// cudaFuncAttributeNonPortableClusterSizeAllowed) and 32 blocks, a zero cluster
// dimension, __cluster_dims__ together with a cluster attribute, cudaLaunchKernelEx
// without attributes, the cluster fields of cudaFuncGetAttributes, and whether each
// error sticks (the next valid launch runs).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) fixed(int* out) {
  cg::cluster_group c = cg::this_cluster();
  atomicAdd(out, (int)c.num_blocks() * 1000 + 1);
}
__global__ void __cluster_dims__(2, 2, 1) fixed_2d(int* out) {
  cg::cluster_group c = cg::this_cluster();
  atomicAdd(out, (int)c.num_blocks() * 1000 + 1);
}
__global__ void plain(int* out) {
  cg::cluster_group c = cg::this_cluster();
  atomicAdd(out, (int)c.num_blocks() * 1000 + 1);
}
__global__ void wide(int* out) {
  cg::cluster_group c = cg::this_cluster();
  c.sync();
  atomicAdd(out, (int)c.num_blocks() * 1000 + 1);
}

int* d;

void report(const char* what, cudaError_t launch) {
  cudaError_t last = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h = -1;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaError_t after = cudaGetLastError();
  printf("%-44s launch %3d (%s) last %3d sync %3d after %3d ran %d\n", what, (int)launch,
         cudaGetErrorName(launch), (int)last, (int)sync, (int)after, h);
  cudaMemset(d, 0, sizeof(int));
}

template <class K>
cudaError_t ex(K kernel, dim3 grid, dim3 block, int cx, int cy, int cz, int nattrs = 1) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cx;
  attr[0].val.clusterDim.y = cy;
  attr[0].val.clusterDim.z = cz;
  config.attrs = nattrs ? attr : nullptr;
  config.numAttrs = nattrs;
  return cudaLaunchKernelEx(&config, kernel, d);
}

int main() {
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  fixed<<<4, 32>>>(d);
  report("cluster_dims(2) <<<4>>>", cudaSuccess);
  fixed<<<3, 32>>>(d);
  report("cluster_dims(2) <<<3>>>", cudaSuccess);
  fixed<<<dim3(2, 3), 32>>>(d);
  report("cluster_dims(2) <<<(2,3)>>>", cudaSuccess);
  fixed_2d<<<dim3(4, 3), 32>>>(d);
  report("cluster_dims(2,2) <<<(4,3)>>>", cudaSuccess);
  fixed_2d<<<dim3(4, 4), 32>>>(d);
  report("cluster_dims(2,2) <<<(4,4)>>>", cudaSuccess);
  report("ex plain cluster 2 grid 3", ex(plain, dim3(3), dim3(32), 2, 1, 1));
  report("ex plain cluster (1,2,1) grid (2,3)", ex(plain, dim3(2, 3), dim3(32), 1, 2, 1));
  report("ex plain cluster 8 grid 16", ex(plain, dim3(16), dim3(32), 8, 1, 1));
  report("ex plain cluster (2,2,2) grid (2,2,2)", ex(plain, dim3(2, 2, 2), dim3(32), 2, 2, 2));
  report("ex plain cluster 16 grid 16", ex(plain, dim3(16), dim3(32), 16, 1, 1));
  report("ex plain cluster 0 grid 16", ex(plain, dim3(16), dim3(32), 0, 1, 1));
  report("ex plain cluster 1 grid 16", ex(plain, dim3(16), dim3(32), 1, 1, 1));
  report("ex plain no attributes grid 16", ex(plain, dim3(16), dim3(32), 2, 1, 1, 0));
  report("ex fixed(2) with attribute 2", ex(fixed, dim3(4), dim3(32), 2, 1, 1));
  report("ex fixed(2) with attribute 4", ex(fixed, dim3(4), dim3(32), 4, 1, 1));
  report("ex fixed(2) with attribute 1", ex(fixed, dim3(4), dim3(32), 1, 1, 1));
  report("ex fixed(2) no attributes", ex(fixed, dim3(4), dim3(32), 2, 1, 1, 0));
  cudaError_t set = cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  printf("set non-portable: %d\n", (int)set);
  report("ex wide cluster 16 grid 32 (non-portable)", ex(wide, dim3(32), dim3(32), 16, 1, 1));
  report("ex wide cluster (4,4,1) grid (4,4)", ex(wide, dim3(4, 4), dim3(32), 4, 4, 1));
  report("ex wide cluster 32 grid 32 (non-portable)", ex(wide, dim3(32), dim3(32), 32, 1, 1));
  report("ex wide cluster 8 block 1024 grid 8", ex(wide, dim3(8), dim3(1024), 8, 1, 1));
  report("ex plain cluster 16 (after wide's opt-in)", ex(plain, dim3(16), dim3(32), 16, 1, 1));
  set = cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 2);
  printf("set non-portable 2: %d\n", (int)set);
  set = cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 0);
  printf("set non-portable 0: %d\n", (int)set);
  report("ex wide cluster 16 grid 16 (opt-in off)", ex(wide, dim3(16), dim3(32), 16, 1, 1));
  set = cudaFuncSetAttribute(fixed, cudaFuncAttributeRequiredClusterWidth, 4);
  printf("set required width of fixed: %d (%s)\n", (int)set, cudaGetErrorName(set));
  cudaGetLastError();
  const void* kernels[3] = {(const void*)fixed, (const void*)fixed_2d, (const void*)plain};
  for (int k = 0; k < 3; ++k) {
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernels[k]);
    printf("attributes %d: %d must %d width %d height %d depth %d policy %d nonportable %d\n", k,
           (int)e, a.clusterDimMustBeSet, a.requiredClusterWidth, a.requiredClusterHeight,
           a.requiredClusterDepth, a.clusterSchedulingPolicyPreference,
           a.nonPortableClusterSizeAllowed);
  }
  int v = -1;
  cudaError_t e = cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0);
  printf("cluster launch attribute: %d %d\n", (int)e, v);
  return 0;
}
