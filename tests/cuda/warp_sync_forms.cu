// Lanes of a warp talking through shared memory in the documented and the legacy ways:
// through volatile with no __syncwarp (a lane-0 write read by the warp, a scan), with
// __syncwarp between the steps of a scan (the form the CUDA programming guide asks for),
// across a divergent branch with __syncwarp after it, and a plain-memory exchange across
// a divergent branch with no __syncwarp at all (the GPU's order of the two paths).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void volatile_forms(int* out) {
  __shared__ volatile int s[64];
  __shared__ volatile int lead[2];
  unsigned t = threadIdx.x, lane = t % 32, w = t / 32;
  if (lane == 0) lead[w] = 1000 + 10 * w;
  s[t] = t + lead[w];
  if (lane >= 1) s[t] += s[t - 1];
  if (lane >= 2) s[t] += s[t - 2];
  if (lane >= 4) s[t] += s[t - 4];
  if (lane >= 8) s[t] += s[t - 8];
  if (lane >= 16) s[t] += s[t - 16];
  out[t] = s[t];
}

__global__ void syncwarp_scan(int* out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x, lane = t % 32;
  s[t] = 3 * t + 1;
  __syncwarp();
  for (unsigned o = 1; o < 32; o *= 2) {
    int v = lane >= o ? s[t - o] : 0;
    __syncwarp();
    s[t] += v;
    __syncwarp();
  }
  out[t] = s[t];
}

__global__ void divergent_syncwarp(int* out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x, lane = t % 32, base = t - lane;
  if (lane % 3 == 0) {
    s[t] = 7 * t;
  } else {
    s[t] = -(int)t;
  }
  __syncwarp();
  out[t] = s[base + (lane + 5) % 32];
}

__global__ void divergent_plain(int* out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x, lane = t % 32, base = t - lane;
  s[t] = 1;
  __syncthreads();
  if (lane < 16) {
    s[base + lane + 16] = 50 + lane;
  } else {
    out[t] = s[t] * 2;
  }
  if (lane < 16) out[t] = s[t];
}

void show(const char* name, const int* d, int n) {
  int h[64];
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %d", h[i]);
  printf("\n");
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  volatile_forms<<<1, 64>>>(d);
  show("volatile", d, 64);
  syncwarp_scan<<<1, 64>>>(d);
  show("syncwarp_scan", d, 64);
  divergent_syncwarp<<<1, 64>>>(d);
  show("divergent_syncwarp", d, 64);
  divergent_plain<<<1, 64>>>(d);
  show("divergent_plain", d, 64);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
