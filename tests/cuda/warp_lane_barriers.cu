// Warps that talk to one another through shared memory across __syncthreads and
// reduce with shuffles between (issue 17: the emulator runs such kernels as lane
// loops, a warp's lanes on one fiber, which wait at the barrier together). The host
// computes every value again and prints PASS or FAIL for each kernel, with a
// checksum. Patterns:
//   exchange: 256 threads, 8 warps; rounds of write a slot, barrier, read another
//             warp's slot, barrier, warp sum by __shfl_xor_sync, the warp's lane 0
//             writes the sum, barrier, read the next warp's sum; every other round
//             (by block) a branch the whole block takes holds one more barrier;
//   partial:  80 threads (the last warp has 16 lanes), threads 72 and up return
//             before the first barrier (they hold no barrier up), the others read
//             what another warp wrote and vote with __ballot_sync over the lanes
//             that are left;
//   early:    96 threads, the whole middle warp returns at once, the other two
//             exchange values through shared memory across three barriers and
//             sum them with __shfl_down_sync.
#include <cuda_runtime.h>

#include <cstdio>

#define FULL 0xffffffffu
#define EXCHANGE_THREADS 256
#define EXCHANGE_BLOCKS 48
#define ROUNDS 6
#define PARTIAL_THREADS 80
#define PARTIAL_LEFT 72
#define PARTIAL_BLOCKS 5

__global__ void exchange(const int* in, int* out) {
  __shared__ int slot[EXCHANGE_THREADS];
  __shared__ int total[EXCHANGE_THREADS / 32];
  const int t = threadIdx.x;
  int v = in[blockIdx.x * EXCHANGE_THREADS + t];
  for (int r = 0; r < ROUNDS; ++r) {
    slot[t] = v;
    __syncthreads();
    v = slot[(t + 37 * (r + 1)) % EXCHANGE_THREADS] * 3 + v;
    __syncthreads();
    int s = v & 0xffff;
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(FULL, s, o);
    if (t % 32 == 0) total[t / 32] = s;
    __syncthreads();
    v += total[(t / 32 + 1) % (EXCHANGE_THREADS / 32)];
    if ((r + blockIdx.x) % 2 == 0) {
      __syncthreads();
      slot[EXCHANGE_THREADS - 1 - t] = v;
      __syncthreads();
      v ^= slot[t];
    }
    __syncthreads();
  }
  out[blockIdx.x * EXCHANGE_THREADS + t] = v;
}

__global__ void partial(int* out) {
  __shared__ int slot[PARTIAL_THREADS];
  const int t = threadIdx.x;
  out[blockIdx.x * PARTIAL_THREADS + t] = -1;
  if (t >= PARTIAL_LEFT) return;
  slot[t] = t * t + 7 * blockIdx.x;
  __syncthreads();
  const int seen = slot[(t + 40) % PARTIAL_LEFT];
  const int left = PARTIAL_LEFT - (t & ~31) < 32 ? PARTIAL_LEFT - (t & ~31) : 32;
  const unsigned mask = left == 32 ? FULL : (1u << left) - 1;
  const unsigned odd = __ballot_sync(mask, seen % 2 != 0);
  __syncthreads();
  slot[t] = seen + __popc(odd);
  __syncthreads();
  out[blockIdx.x * PARTIAL_THREADS + t] = slot[PARTIAL_LEFT - 1 - t] * 1000 + __popc(odd);
}

#define EARLY_THREADS 96
#define EARLY_BLOCKS 7

__global__ void early(int* out) {
  __shared__ int slot[EARLY_THREADS];
  const int t = threadIdx.x;
  out[blockIdx.x * EARLY_THREADS + t] = -1;
  if (t / 32 == 1) return;
  int v = t * 5 + blockIdx.x;
  for (int r = 0; r < 3; ++r) {
    slot[t] = v;
    __syncthreads();
    v += slot[t < 32 ? t + 64 : t - 64];
    __syncthreads();
  }
  int s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(FULL, s, o);
  out[blockIdx.x * EARLY_THREADS + t] = t % 32 == 0 ? s : v;
}

// The host's own run of the kernels, block by block.
static void exchange_on_host(const int* in, int* out) {
  static int v[EXCHANGE_THREADS], slot[EXCHANGE_THREADS], total[EXCHANGE_THREADS / 32];
  for (int b = 0; b < EXCHANGE_BLOCKS; ++b) {
    for (int t = 0; t < EXCHANGE_THREADS; ++t) v[t] = in[b * EXCHANGE_THREADS + t];
    for (int r = 0; r < ROUNDS; ++r) {
      for (int t = 0; t < EXCHANGE_THREADS; ++t) slot[t] = v[t];
      for (int t = 0; t < EXCHANGE_THREADS; ++t)
        v[t] = slot[(t + 37 * (r + 1)) % EXCHANGE_THREADS] * 3 + v[t];
      for (int w = 0; w < EXCHANGE_THREADS / 32; ++w) {
        int s = 0;
        for (int l = 0; l < 32; ++l) s += v[w * 32 + l] & 0xffff;
        total[w] = s;
      }
      for (int t = 0; t < EXCHANGE_THREADS; ++t) v[t] += total[(t / 32 + 1) % (EXCHANGE_THREADS / 32)];
      if ((r + b) % 2 == 0) {
        for (int t = 0; t < EXCHANGE_THREADS; ++t) slot[EXCHANGE_THREADS - 1 - t] = v[t];
        for (int t = 0; t < EXCHANGE_THREADS; ++t) v[t] ^= slot[t];
      }
    }
    for (int t = 0; t < EXCHANGE_THREADS; ++t) out[b * EXCHANGE_THREADS + t] = v[t];
  }
}

static void partial_on_host(int* out) {
  int slot[PARTIAL_THREADS], seen[PARTIAL_THREADS], votes[PARTIAL_THREADS];
  for (int b = 0; b < PARTIAL_BLOCKS; ++b) {
    for (int t = 0; t < PARTIAL_THREADS; ++t) out[b * PARTIAL_THREADS + t] = -1;
    for (int t = 0; t < PARTIAL_LEFT; ++t) slot[t] = t * t + 7 * b;
    for (int t = 0; t < PARTIAL_LEFT; ++t) seen[t] = slot[(t + 40) % PARTIAL_LEFT];
    for (int t = 0; t < PARTIAL_LEFT; ++t) {
      int n = 0;
      for (int u = t & ~31; u < PARTIAL_LEFT && u < (t & ~31) + 32; ++u) n += seen[u] % 2 != 0;
      votes[t] = n;
    }
    for (int t = 0; t < PARTIAL_LEFT; ++t) slot[t] = seen[t] + votes[t];
    for (int t = 0; t < PARTIAL_LEFT; ++t)
      out[b * PARTIAL_THREADS + t] = slot[PARTIAL_LEFT - 1 - t] * 1000 + votes[t];
  }
}

static void early_on_host(int* out) {
  int v[EARLY_THREADS], slot[EARLY_THREADS];
  for (int b = 0; b < EARLY_BLOCKS; ++b) {
    for (int t = 0; t < EARLY_THREADS; ++t) v[t] = t * 5 + b;
    for (int r = 0; r < 3; ++r) {
      for (int t = 0; t < EARLY_THREADS; ++t)
        if (t / 32 != 1) slot[t] = v[t];
      for (int t = 0; t < EARLY_THREADS; ++t)
        if (t / 32 != 1) v[t] += slot[t < 32 ? t + 64 : t - 64];
    }
    for (int t = 0; t < EARLY_THREADS; ++t) {
      int s = 0;
      for (int u = t; u < (t & ~31) + 32; ++u) s += v[u];
      out[b * EARLY_THREADS + t] = t / 32 == 1 ? -1 : t % 32 == 0 ? s : v[t];
    }
  }
}

static unsigned checksum(const int* a, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i) h = (h ^ static_cast<unsigned>(a[i])) * 16777619u;
  return h;
}

int main() {
  const int n = EXCHANGE_BLOCKS * EXCHANGE_THREADS;
  static int in[n], got[n], want[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 2654435761u) >> 12 & 0xfffff;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof got);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  exchange<<<EXCHANGE_BLOCKS, EXCHANGE_THREADS>>>(d_in, d_out);
  cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
  exchange_on_host(in, want);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != want[i];
  printf("exchange: %s, %d of %d differ, checksum %08x\n", wrong ? "FAIL" : "PASS", wrong, n,
         checksum(got, n));

  const int m = PARTIAL_BLOCKS * PARTIAL_THREADS;
  static int pgot[m], pwant[m];
  partial<<<PARTIAL_BLOCKS, PARTIAL_THREADS>>>(d_out);
  cudaMemcpy(pgot, d_out, sizeof pgot, cudaMemcpyDeviceToHost);
  partial_on_host(pwant);
  wrong = 0;
  for (int i = 0; i < m; ++i) wrong += pgot[i] != pwant[i];
  printf("partial: %s, %d of %d differ, checksum %08x, thread 0 %d, thread 71 %d\n",
         wrong ? "FAIL" : "PASS", wrong, m, checksum(pgot, m), pgot[0], pgot[71]);

  const int e = EARLY_BLOCKS * EARLY_THREADS;
  static int egot[e], ewant[e];
  early<<<EARLY_BLOCKS, EARLY_THREADS>>>(d_out);
  cudaMemcpy(egot, d_out, sizeof egot, cudaMemcpyDeviceToHost);
  early_on_host(ewant);
  wrong = 0;
  for (int i = 0; i < e; ++i) wrong += egot[i] != ewant[i];
  printf("early: %s, %d of %d differ, checksum %08x, thread 0 %d, thread 64 %d\n",
         wrong ? "FAIL" : "PASS", wrong, e, checksum(egot, e), egot[0], egot[64]);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
