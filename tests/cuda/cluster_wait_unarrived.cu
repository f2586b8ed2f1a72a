// gpu: skip
// barrier_wait on the cluster barrier by threads that never arrived (undefined on a
// GPU, not run there): the emulator stops at the wait and names its line.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) k() {
  cg::this_cluster().barrier_wait();
}

int main() {
  k<<<2, 32>>>();
  return cudaDeviceSynchronize();
}
