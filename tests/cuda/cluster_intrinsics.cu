// The cluster intrinsics of sm_90 (no cooperative groups): __clusterDimIsSpecified,
// __clusterDim, __clusterIdx, __clusterRelativeBlockIdx, __clusterRelativeBlockRank,
// __clusterSizeInBlocks, __clusterGridDimInClusters, __cluster_barrier_arrive/wait and
// __cluster_map_shared_rank, in a __cluster_dims__(2, 2, 1) kernel and a launch without
// clusters.
#include <cuda_runtime.h>

#include <cstdio>

__device__ void record(unsigned* out) {
  __shared__ unsigned mine;
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned* o = out + block * 10;
  if (threadIdx.x == 0) mine = block * 7 + 1;
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
  if (threadIdx.x == 0) {
    dim3 cd = __clusterDim();
    dim3 ci = __clusterIdx();
    dim3 rb = __clusterRelativeBlockIdx();
    dim3 gc = __clusterGridDimInClusters();
    o[0] = __clusterDimIsSpecified();
    o[1] = cd.x * 10000 + cd.y * 100 + cd.z;
    o[2] = ci.x * 10000 + ci.y * 100 + ci.z;
    o[3] = rb.x * 10000 + rb.y * 100 + rb.z;
    o[4] = __clusterRelativeBlockRank();
    o[5] = __clusterSizeInBlocks();
    o[6] = gc.x * 10000 + gc.y * 100 + gc.z;
    unsigned last = __clusterSizeInBlocks() - 1;
    o[7] = *(unsigned*)__cluster_map_shared_rank((void*)&mine, last);
    o[8] = blockIdx.x * 10000 + blockIdx.y * 100 + blockIdx.z;
  }
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
}

__global__ void __cluster_dims__(2, 2, 1) clustered(unsigned* out) { record(out); }
__global__ void plain(unsigned* out) { record(out); }

void show(const char* what, unsigned* d, int blocks) {
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  unsigned h[64 * 10];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s: launch %d sync %d\n", what, (int)launch, (int)sync);
  for (int b = 0; b < blocks; ++b) {
    unsigned* o = h + b * 10;
    printf("  blk %06u: specified %u dim %06u idx %06u rel %06u rank %u size %u grid %06u last's %u\n",
           o[8], o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
  }
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 64 * 10 * sizeof(unsigned));
  cudaMemset(d, 0, 64 * 10 * sizeof(unsigned));
  clustered<<<dim3(4, 2, 2), 32>>>(d);
  show("clustered (4,2,2)", d, 16);
  cudaMemset(d, 0, 64 * 10 * sizeof(unsigned));
  plain<<<dim3(3, 2), 32>>>(d);
  show("plain (3,2)", d, 6);
  return 0;
}
