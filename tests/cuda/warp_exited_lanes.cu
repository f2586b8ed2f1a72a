// A full-mask warp reduction after some lanes of the warp have returned:
// 48 elements, one block of 64 threads, threads 48-63 return first, the rest
// reduce with __shfl_down_sync(0xffffffff, ...). Undefined behaviour by the
// CUDA rules (a lane named in the mask has exited). The emulator refuses it:
// "divergent warp operation __shfl_down_sync at FILE:16: lanes 0x0000ffff of
// warp 1 of block (0,0,0) wait there with mask 0xffffffff; lanes 0xffff0000
// never arrive / lanes 0xffff0000 returned", status 1. What the GPU does is
// recorded in expected/ (it usually runs, reading undefined values).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void partial_sum(const int* in, int* out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (i % 32 == 0) out[i / 32] = v;
}

int main() {
  const int n = 48;
  int h[n];
  for (int k = 0; k < n; ++k) h[k] = 1;
  int *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, 2 * sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(o, 0, 2 * sizeof(int));
  partial_sum<<<1, 64>>>(d, o, n);
  cudaError_t e = cudaDeviceSynchronize();
  int r[2];
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("sync %d: warp 0 sum %d (32 ones), warp 1 sum %d (16 ones)\n", e, r[0], r[1]);
  return 0;
}
