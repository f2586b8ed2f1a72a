// The old warp-synchronous inclusive scan written without volatile and without
// __syncwarp, as the rank computation of a radix-sort pass: lane t adds s[t - 1],
// s[t - 2], ... s[t - 16] in place. Whether lanes see each other's partial sums depends
// on whether the compiler keeps s[t] in a register between the steps (nvcc -O3 may);
// this prints what the H200 computed: one pass's inclusive scan, then a 16-pass sort.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void radix_pass(const unsigned* keys, unsigned* sorted, int* scan, int bit) {
  __shared__ int s[128];
  __shared__ int warp_total[4];
  unsigned t = threadIdx.x, lane = t % 32, w = t / 32;
  unsigned k = keys[t];
  int zero = ((k >> bit) & 1) == 0;
  s[t] = zero;
  if (lane >= 1) s[t] += s[t - 1];
  if (lane >= 2) s[t] += s[t - 2];
  if (lane >= 4) s[t] += s[t - 4];
  if (lane >= 8) s[t] += s[t - 8];
  if (lane >= 16) s[t] += s[t - 16];
  int incl = s[t];
  scan[t] = incl;
  if (lane == 31) warp_total[w] = incl;
  __syncthreads();
  int before = 0, zeros = 0;
  for (unsigned i = 0; i < 4; ++i) {
    if (i < w) before += warp_total[i];
    zeros += warp_total[i];
  }
  int rank_zero = before + incl - zero;
  int rank = zero ? rank_zero : zeros + (int)t - rank_zero;
  sorted[rank & 127] = k;
}

int main() {
  unsigned keys[128];
  unsigned x = 12345;
  for (int i = 0; i < 128; ++i) {
    x = x * 1103515245u + 12345u;
    keys[i] = (x >> 8) & 0xffff;
  }
  unsigned *da, *db;
  int* dscan;
  cudaMalloc(&da, sizeof keys);
  cudaMalloc(&db, sizeof keys);
  cudaMalloc(&dscan, 128 * sizeof(int));
  cudaMemcpy(da, keys, sizeof keys, cudaMemcpyHostToDevice);
  cudaMemset(db, 0, sizeof keys);
  for (int bit = 0; bit < 16; ++bit) {
    radix_pass<<<1, 128>>>(da, db, dscan, bit);
    if (bit == 0) {
      int scan[128];
      cudaMemcpy(scan, dscan, sizeof scan, cudaMemcpyDeviceToHost);
      printf("scan");
      for (int i = 0; i < 40; ++i) printf(" %d", scan[i]);
      printf("\n");
    }
    unsigned* tmp = da;
    da = db;
    db = tmp;
  }
  unsigned sorted[128];
  cudaMemcpy(sorted, da, sizeof sorted, cudaMemcpyDeviceToHost);
  int in_order = 1;
  unsigned h = 0;
  for (int i = 0; i < 128; ++i) {
    if (i > 0 && sorted[i - 1] > sorted[i]) in_order = 0;
    h = h * 31 + sorted[i];
  }
  printf("radix sorted %d hash %08x\n", in_order, h);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
