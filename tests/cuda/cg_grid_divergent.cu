// gpu: skip
// A cooperative kernel in which block 1 returns before grid.sync(): undefined, a GPU
// waits for it forever. The emulator stops with the line of the grid.sync() and how
// many blocks reached it, instead of hanging. Not run on the GPU (it would hang).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void early_return(int* out) {
  if (blockIdx.x == 1) return;
  out[blockIdx.x] = 1;
  cg::this_grid().sync();
  out[blockIdx.x] = 2;
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  void* args[] = {&d};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)early_return, dim3(4), dim3(32), args, 0, 0);
  std::printf("launch %d sync %d\n", (int)e, (int)cudaDeviceSynchronize());
  return 0;
}
