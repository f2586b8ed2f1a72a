// __syncthreads_count, __syncthreads_and, __syncthreads_or, over blocks of
// 256 and of 100 threads (not a whole number of warps), predicates on thread
// and block index.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void votes(int* out) {
  __shared__ int seen[1024];
  int t = threadIdx.x;
  int* o = out + blockIdx.x * 8;
  int c1 = __syncthreads_count(t % 3 == 0);
  int c2 = __syncthreads_count(blockIdx.x == 1);
  int a1 = __syncthreads_and(t >= 0);
  int a2 = __syncthreads_and(t != 17);
  int r1 = __syncthreads_or(t == static_cast<int>(blockDim.x) - 1);
  int r2 = __syncthreads_or(t > 100000);
  int c3 = __syncthreads_count(1);
  // every thread must see the same results
  seen[t] = c1 + 3 * c2 + 5 * a1 + 7 * a2 + 11 * r1 + 13 * r2 + 17 * c3;
  __syncthreads();
  if (t == static_cast<int>(blockDim.x) / 2) {
    int agree = 1;
    for (int k = 0; k < static_cast<int>(blockDim.x); ++k) agree &= seen[k] == seen[t];
    o[0] = c1; o[1] = c2; o[2] = a1; o[3] = a2; o[4] = r1; o[5] = r2; o[6] = c3; o[7] = agree;
  }
}

int main() {
  for (int threads : {256, 100, 1}) {
    int* d;
    cudaMalloc(&d, 3 * 8 * sizeof(int));
    cudaMemset(d, 0, 3 * 8 * sizeof(int));
    votes<<<3, threads>>>(d);
    int h[24];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%d threads (%s):", threads, cudaGetErrorString(cudaGetLastError()));
    for (int b = 0; b < 3; ++b) {
      std::printf(" [");
      for (int k = 0; k < 8; ++k) std::printf("%s%d", k ? " " : "", h[b * 8 + k]);
      std::printf("]");
    }
    std::printf("\n");
    cudaFree(d);
  }
  return 0;
}
