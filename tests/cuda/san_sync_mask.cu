// __syncwarp with a mask that leaves out the calling lane (lanes 16..31 call
// __syncwarp(0x0000ffff), line 11): synccheck's invalid warp-synchronous
// mask. The other half calls it correctly.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void half(int* out) {
  int lane = threadIdx.x;
  out[lane] = lane;
  __syncwarp(0x0000ffff);
  out[lane] += 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  half<<<1, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch %d sync %d\n", launch, sync);
  cudaFree(d);
  return 0;
}
