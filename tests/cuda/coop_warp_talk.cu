// Two cooperative kernels, each launched three times. In `talk`, lanes 1..15 of each
// warp store key words in plain shared memory that lane 0 of the same warp reads with no
// barrier (the ChaCha20-style key set-up of warp_plain_shared.cu), then the grid syncs
// and block 0 adds up every block's word. In `quiet`, each thread only touches its own
// shared word. The emulator runs a cooperative launch's lanes in lock step unless the
// kernel's previous cooperative launch showed no lanes of a warp talking: `quiet` runs
// its later launches without meetings, `talk` never does, so every launch of `talk`
// prints the first one's (the H200's) answer.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__device__ unsigned rotl(unsigned x, int n) { return (x << n) | (x >> (32 - n)); }

__global__ void talk(const unsigned* key, unsigned* out, unsigned* total, int round) {
  __shared__ unsigned state[2][16];
  unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane >= 1 && lane < 16)
    state[w][lane] = key[(blockIdx.x * 2 + w) * 16 + lane] ^ (lane * 0x9e3779b9u) ^ round;
  if (lane == 0) {
    state[w][0] = 0x61707865u;
    unsigned a = 0;
    for (int i = 0; i < 16; ++i) a = rotl(a ^ state[w][i], 7) + state[w][(i + 5) & 15];
    out[blockIdx.x * 2 + w] = a;
  }
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned s = 0;
    for (unsigned i = 0; i < gridDim.x * 2; ++i) s = s * 33u + out[i];
    *total = s;
  }
}

__global__ void quiet(unsigned* out, unsigned* total, int round) {
  __shared__ unsigned mine[64];
  mine[threadIdx.x] = threadIdx.x * 2654435761u + blockIdx.x + round;
  mine[threadIdx.x] = rotl(mine[threadIdx.x], 5) ^ round;
  out[blockIdx.x * 64 + threadIdx.x] = mine[threadIdx.x];
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned s = 0;
    for (unsigned i = 0; i < gridDim.x * 64; ++i) s = s * 33u + out[i];
    *total = s;
  }
}

int main() {
  const int blocks = 4;
  unsigned host_key[blocks * 2 * 16];
  for (int i = 0; i < blocks * 2 * 16; ++i) host_key[i] = i * 0x01000193u + 7u;
  unsigned *key, *out, *total;
  cudaMalloc(&key, sizeof host_key);
  cudaMalloc(&out, blocks * 64 * sizeof(unsigned));
  cudaMalloc(&total, sizeof(unsigned));
  cudaMemcpy(key, host_key, sizeof host_key, cudaMemcpyHostToDevice);
  for (int round = 0; round < 3; ++round) {
    void* args[] = {&key, &out, &total, &round};
    cudaError_t e = cudaLaunchCooperativeKernel((void*)talk, dim3(blocks), dim3(64), args, 0, 0);
    unsigned t = 0;
    cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost);
    printf("talk round %d: %s %08x\n", round, cudaGetErrorString(e), t);
  }
  for (int round = 0; round < 3; ++round) {
    void* args[] = {&out, &total, &round};
    cudaError_t e = cudaLaunchCooperativeKernel((void*)quiet, dim3(blocks), dim3(64), args, 0, 0);
    unsigned t = 0;
    cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost);
    printf("quiet round %d: %s %08x\n", round, cudaGetErrorString(e), t);
  }
  return 0;
}
