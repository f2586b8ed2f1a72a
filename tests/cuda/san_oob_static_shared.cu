// A write past the end of a static __shared__ array: threads 224..255 write
// tile[t + off] with off = 256 (line 12), at byte offsets 1,920 to 2,044 of
// a 1,024-byte array, past the block's shared memory (it has no other). memcheck
// reports an invalid __shared__ write of size 4 bytes at that line.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void spill(float* out, int off) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  if (t >= 224) tile[t + off] = 1.0f;
  tile[t] = static_cast<float>(t);
  __syncthreads();
  out[t] = tile[255 - t];
}

int main() {
  float* d;
  cudaMalloc(&d, 256 * sizeof(float));
  cudaMemset(d, 0, 256 * sizeof(float));
  spill<<<1, 256>>>(d, 256);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  static float h[256];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d\n", launch, sync, copy);
  cudaFree(d);
  return 0;
}
