// Memory communication whose order the emulator cannot know to be the GPU's: warp 1
// reads a shared word that warp 0 writes with no barrier between them (the value
// written is the one already there, so the output does not depend on the order), and
// a divergent warp whose two paths talk through plain shared memory. The emulator warns
// about both, naming the two source lines, once per pair of lines.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void cross_warp(int* out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  if (t < 32) s[t] = 7;
  __syncthreads();
  for (int r = 0; r < 3; ++r) {
    if (t < 32) s[t] = 7 * (r + 1) / (r + 1);
    if (t >= 32) out[t - 32] = s[t - 32] + r;
  }
}

__global__ void divergent(int* out) {
  __shared__ int s[32];
  unsigned lane = threadIdx.x;
  s[lane] = 0;
  __syncwarp();
  if (lane & 1) {
    s[lane - 1] = 40 + lane;
  } else {
    out[lane] = s[lane];
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  int h[32];
  cross_warp<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("cross_warp %d %d %d\n", h[0], h[17], h[31]);
  divergent<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("divergent");
  for (int i = 0; i < 32; i += 2) printf(" %d", h[i]);
  printf("\n");
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
