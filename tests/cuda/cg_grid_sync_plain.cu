// grid.sync() in a kernel launched with <<<>>> rather than cudaLaunchCooperativeKernel:
// what the H200 does (the launch, the synchronize, and what follows).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void wrong(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  cg::this_grid().sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * 32 * sizeof(int));
  cudaMemset(d, 0, 4 * 32 * sizeof(int));
  wrong<<<4, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch %d sync %d (%s)\n", (int)launch, (int)sync, cudaGetErrorString(sync));
  int h[4 * 32] = {0};
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("copy %d out[0] %d out[127] %d\n", (int)copy, h[0], h[127]);
  return 0;
}
