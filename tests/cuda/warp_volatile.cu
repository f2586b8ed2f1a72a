// Pre-Volta warp-synchronous code: lanes of a warp talk through volatile shared memory with
// no __syncwarp, relying on lock-step execution. The classic last-warp reduction (int and
// float, where the order of the additions shows in the bits), the warp-synchronous
// inclusive scan with `if (lane >= offset)` steps, a lane-0 write read back by the whole
// warp, and a volatile flag set by one thread before __syncthreads.
#include <cuda_runtime.h>

#include <cstdio>

template <unsigned B, class T>
__device__ void warp_reduce(volatile T* s, unsigned t) {
  if (B >= 64) s[t] += s[t + 32];
  if (B >= 32) s[t] += s[t + 16];
  if (B >= 16) s[t] += s[t + 8];
  if (B >= 8) s[t] += s[t + 4];
  if (B >= 4) s[t] += s[t + 2];
  if (B >= 2) s[t] += s[t + 1];
}

template <unsigned B, class T>
__global__ void reduce(const T* in, T* out) {
  __shared__ T s[B];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (unsigned o = B / 2; o > 32; o /= 2) {
    if (t < o) s[t] += s[t + o];
    __syncthreads();
  }
  if (t < 32) warp_reduce<B>(s, t);
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void warp_scan(const int* in, int* out) {
  __shared__ volatile int s[128];
  unsigned t = threadIdx.x, lane = t % 32;
  s[t] = in[t];
  if (lane >= 1) s[t] += s[t - 1];
  if (lane >= 2) s[t] += s[t - 2];
  if (lane >= 4) s[t] += s[t - 4];
  if (lane >= 8) s[t] += s[t - 8];
  if (lane >= 16) s[t] += s[t - 16];
  out[t] = s[t];
}

__global__ void broadcast(int* out) {
  __shared__ volatile int s[4];
  unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) s[w] = 100 + w * 7;
  out[threadIdx.x] = s[w] + lane;
}

__global__ void flag(int* out) {
  __shared__ volatile int f;
  if (threadIdx.x == 0) f = 41;
  __syncthreads();
  if (threadIdx.x == 5) f = f + 1;
  __syncthreads();
  out[threadIdx.x] = f;
}

int main() {
  const int B = 256, nb = 3;
  int hi[nb * B];
  float hf[nb * B];
  for (int i = 0; i < nb * B; ++i) {
    hi[i] = (i * 29) % 97 - 40;
    hf[i] = (i % 7 == 0 ? 3e7f : 1.0f) + 0.013f * i;
  }
  int *di, *oi;
  float *df, *of;
  cudaMalloc(&di, sizeof hi);
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&oi, 128 * sizeof(int));
  cudaMalloc(&of, nb * sizeof(float));
  cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  reduce<B><<<nb, B>>>(di, oi);
  int ri[nb];
  cudaMemcpy(ri, oi, sizeof ri, cudaMemcpyDeviceToHost);
  std::printf("int sums %d %d %d\n", ri[0], ri[1], ri[2]);
  reduce<B><<<nb, B>>>(df, of);
  float rf[nb];
  cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
  std::printf("float sums %a %a %a\n", rf[0], rf[1], rf[2]);
  reduce<64><<<2, 64>>>(di, oi);
  cudaMemcpy(ri, oi, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("64-thread sums %d %d\n", ri[0], ri[1]);

  warp_scan<<<1, 128>>>(di, oi);
  int rs[128];
  cudaMemcpy(rs, oi, sizeof rs, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int w = 0; w < 4; ++w) {
    int acc = 0;
    for (int l = 0; l < 32; ++l) {
      acc += hi[w * 32 + l];
      if (rs[w * 32 + l] != acc) ++wrong;
    }
  }
  std::printf("scan: %d %d %d %d, %d wrong\n", rs[0], rs[31], rs[32], rs[127], wrong);

  broadcast<<<1, 128>>>(oi);
  cudaMemcpy(rs, oi, sizeof rs, cudaMemcpyDeviceToHost);
  std::printf("broadcast: %d %d %d %d %d\n", rs[0], rs[1], rs[31], rs[32], rs[127]);
  flag<<<1, 64>>>(oi);
  cudaMemcpy(rs, oi, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("flag: %d %d %d\n", rs[0], rs[5], rs[63]);
  return 0;
}
