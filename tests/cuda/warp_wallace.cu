// The pattern of a Wallace Gaussian generator (issue 17): each block keeps a
// pool of normal-ish floats in shared memory and mixes it pass after pass with
// an orthogonal 4x4 transform (t = (a + b + c + d) / 2, then t - a, t - b, t - c,
// t - d), reading four pool entries through a pass-dependent permutation and
// writing them back in place of the quad it owns, with a barrier on each side.
// Every few passes each warp sums the squares of its lanes' values with
// __shfl_xor_sync, the way the generator renormalises. Only correctly rounded
// operations (the _rn intrinsics, so no multiply-add is contracted), so the CPU
// and the H200 compute the same bits. Prints checksums of the pools and the
// warps' sums as exact hex floats. Its wall time is one of scripts/bench-warp's.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#define POOL 2048     // floats per block
#define THREADS 256   // each thread owns two quads of the pool
#define PASSES 256
#define NORM_EVERY 8  // passes between two warp sums of squares
#define FULL 0xffffffffu

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Irwin-Hall: the sum of four uniforms on [0, 1) minus 2, from an integer hash.
__device__ float initial(unsigned seed) {
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) {
    seed = mix(seed + 0x9e3779b9u);
    s = __fadd_rn(s, __fmul_rn((float)(seed >> 8), 0x1p-24f));
  }
  return __fadd_rn(s, -2.0f);
}

// A permutation of 0 .. POOL-1 that changes with the pass: an odd multiplier and
// an offset, modulo the power of two.
__device__ unsigned permute(unsigned i, unsigned pass) {
  unsigned odd = 2u * (mix(pass) & 1023u) + 1u;
  return (i * odd + mix(pass + 77u)) & (POOL - 1);
}

__global__ void wallace(float* pools, float* norms) {
  __shared__ float pool[POOL];
  __shared__ float warp_norm[THREADS / 32];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  for (unsigned i = tid; i < POOL; i += THREADS) pool[i] = initial(blockIdx.x * POOL + i);
  if (lane == 0) warp_norm[warp] = 0.0f;
  __syncthreads();
  for (unsigned pass = 0; pass < PASSES; ++pass) {
    float out[8];
    for (int g = 0; g < 2; ++g) {
      const unsigned quad = tid + g * THREADS;
      float v[4];
      for (int k = 0; k < 4; ++k) v[k] = pool[permute(4 * quad + k, pass)];
      const float t = __fmul_rn(__fadd_rn(__fadd_rn(v[0], v[1]), __fadd_rn(v[2], v[3])), 0.5f);
      for (int k = 0; k < 4; ++k) out[4 * g + k] = __fsub_rn(t, v[k]);
    }
    __syncthreads();
    for (int g = 0; g < 2; ++g)
      for (int k = 0; k < 4; ++k) pool[4 * (tid + g * THREADS) + k] = out[4 * g + k];
    __syncthreads();
    if (pass % NORM_EVERY == NORM_EVERY - 1) {
      float squares = 0.0f;
      for (int k = 0; k < 8; ++k) squares = __fadd_rn(squares, __fmul_rn(out[k], out[k]));
      for (int step = 16; step >= 1; step /= 2) squares = __fadd_rn(squares, __shfl_xor_sync(FULL, squares, step));
      if (lane == 0) warp_norm[warp] = __fadd_rn(warp_norm[warp], squares);
    }
  }
  __syncthreads();
  for (unsigned i = tid; i < POOL; i += THREADS) pools[blockIdx.x * POOL + i] = pool[i];
  if (tid < THREADS / 32) norms[blockIdx.x * (THREADS / 32) + tid] = warp_norm[tid];
}

int main() {
  const int blocks = 132;
  float *d_pools, *d_norms;
  cudaMalloc(&d_pools, blocks * POOL * sizeof(float));
  cudaMalloc(&d_norms, blocks * (THREADS / 32) * sizeof(float));
  wallace<<<blocks, THREADS>>>(d_pools, d_norms);
  static float pools[blocks * POOL];
  static float norms[blocks * (THREADS / 32)];
  cudaMemcpy(pools, d_pools, sizeof pools, cudaMemcpyDeviceToHost);
  cudaMemcpy(norms, d_norms, sizeof norms, cudaMemcpyDeviceToHost);
  unsigned long long hash = 1469598103934665603ull;
  double sum = 0, squares = 0;
  for (int i = 0; i < blocks * POOL; ++i) {
    unsigned bits;
    memcpy(&bits, &pools[i], 4);
    hash = (hash ^ bits) * 1099511628211ull;
    sum += pools[i];
    squares += (double)pools[i] * pools[i];
  }
  printf("pool hash %016llx sum %a squares %a\n", hash, sum, squares);
  printf("first %a %a last %a\n", pools[0], pools[1], pools[blocks * POOL - 1]);
  for (int b = 0; b < blocks; b += 43) {
    printf("block %d warp sums", b);
    for (int w = 0; w < THREADS / 32; ++w) printf(" %a", norms[b * (THREADS / 32) + w]);
    printf("\n");
  }
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
