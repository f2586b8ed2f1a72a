// Warp-synchronous code written without volatile and without __syncwarp, through plain
// shared and global memory, as real code written for lock-step warps does: lanes 1..15
// write key words that lane 0 of the same warp reads (a ChaCha20-style key set-up), a
// lane-0 write read back by its warp, a neighbour exchange, a shift (every lane reads
// before any writes), and lanes writing global memory that lane 0 then sums. The CUDA
// programming model calls these races; the H200's converged warps give the answers
// printed here (the old scan without volatile is warp_plain_scan.cu).
#include <cuda_runtime.h>

#include <cstdio>

__device__ unsigned rotl(unsigned x, int n) { return (x << n) | (x >> (32 - n)); }

// Lanes 1..15 of each warp store a key word; lane 0 mixes them with no barrier.
__global__ void key_setup(const unsigned* key, unsigned* out) {
  __shared__ unsigned state[4][16];
  unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane >= 1 && lane < 16) state[w][lane] = key[(blockIdx.x * 4 + w) * 16 + lane] ^ (lane * 0x9e3779b9u);
  if (lane == 0) {
    state[w][0] = 0x61707865u;
    unsigned a = 0;
    for (int i = 0; i < 16; ++i) a = rotl(a ^ state[w][i], 7) + state[w][(i + 5) & 15];
    out[blockIdx.x * 4 + w] = a;
  }
}

__global__ void broadcast(int* out) {
  __shared__ int s[4];
  unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) s[w] = 100 + w * 7;
  out[threadIdx.x] = s[w] + lane;
}

__global__ void exchange(int* out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = t * t;
  out[t] = s[t ^ 1] - s[(t + 3) % 32 + (t / 32) * 32];
}

__global__ void shift(int* out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x, lane = t % 32;
  s[t] = 10 * t;
  __syncthreads();
  if (lane >= 1) s[t] = s[t - 1] + 1;
  out[t] = s[t];
}

__global__ void global_gather(int* buf, int* out) {
  unsigned t = threadIdx.x, lane = t % 32;
  buf[t] = 3 * t + 1;
  if (lane == 0) {
    int sum = 0;
    for (int i = 1; i < 32; ++i) sum += buf[t + i];
    out[t / 32] = sum;
  }
}

int main() {
  unsigned hk[8 * 16];
  for (int i = 0; i < 8 * 16; ++i) hk[i] = 0x01234567u * (i + 1) + (i << 20);
  unsigned *dk, *dout;
  cudaMalloc(&dk, sizeof hk);
  cudaMalloc(&dout, 8 * sizeof(unsigned));
  cudaMemcpy(dk, hk, sizeof hk, cudaMemcpyHostToDevice);
  key_setup<<<2, 128>>>(dk, dout);
  unsigned ho[8];
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  printf("key_setup");
  for (int i = 0; i < 8; ++i) printf(" %08x", ho[i]);
  printf("\n");

  int* di;
  cudaMalloc(&di, 128 * sizeof(int));
  int hi[128];
  broadcast<<<1, 128>>>(di);
  cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
  printf("broadcast %d %d %d %d %d\n", hi[0], hi[31], hi[32], hi[97], hi[127]);
  exchange<<<1, 64>>>(di);
  cudaMemcpy(hi, di, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("exchange");
  for (int i = 0; i < 64; i += 7) printf(" %d", hi[i]);
  printf("\n");
  shift<<<1, 64>>>(di);
  cudaMemcpy(hi, di, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("shift");
  for (int i = 0; i < 64; i += 7) printf(" %d", hi[i]);
  printf("\n");
  int* dbuf;
  cudaMalloc(&dbuf, 128 * sizeof(int));
  global_gather<<<1, 96>>>(dbuf, di);
  cudaMemcpy(hi, di, 3 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("global_gather %d %d %d\n", hi[0], hi[1], hi[2]);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
