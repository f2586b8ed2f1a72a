// Just past the end of a static __shared__ array: thread 0 writes tile[n]
// with n = 256 (line 12), the first byte after the 1,024-byte array. Records
// whether the H200's shared-memory window ends at the array's end (memcheck:
// an invalid __shared__ write) or is rounded up (nothing reported).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void edge(float* out, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  if (t == 0) tile[n] = 1.0f;
  tile[t] = static_cast<float>(t);
  __syncthreads();
  out[t] = tile[255 - t];
}

int main() {
  float* d;
  cudaMalloc(&d, 256 * sizeof(float));
  cudaMemset(d, 0, 256 * sizeof(float));
  edge<<<1, 256>>>(d, 256);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  static float h[256];
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("launch %d sync %d copy %d\n", launch, sync, copy);
  cudaFree(d);
  return 0;
}
