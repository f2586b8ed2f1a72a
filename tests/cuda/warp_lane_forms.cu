// More kernel shapes the emulator runs as lane loops (issue 17: a warp's lanes on one
// fiber): dynamic shared memory, the warp's own __syncwarp, a switch in each lane's
// code, and a tile loop that steps two indices at once (matrixMul's). The host
// computes every value again and prints PASS or FAIL for each kernel, with a
// checksum. Patterns:
//   dynamic:  256 threads with an `extern __shared__` buffer sized at the launch;
//             each thread writes a slot, barrier, reads another warp's slot, warp sum
//             by __shfl_xor_sync;
//   warp_talk: each warp's lanes write their slot of a shared array, __syncwarp(),
//             read a warp-mate's slot, __syncwarp(), write again, read again, then a
//             __shfl_down_sync sum (the documented way for a warp's lanes to talk
//             through memory);
//   switch:   each lane picks a case by its own value (break, fall-through, a loop
//             with continue inside a case, default), then a __reduce_add_sync;
//   groups:   a cooperative-groups block: `cg::thread_block cta = cg::this_thread_block()`,
//             rounds of write a slot by cta.thread_rank(), cg::sync(cta), read another
//             warp's slot, cta.sync(), then a __shfl_xor_sync;
//   tiles:    C = A * B in 4x4 blocks of 16x16 threads (a warp spans two rows), as
//             matrixMul writes it:
//             `for (a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep)`
//             over tiles loaded into two shared arrays between barriers.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

#define FULL 0xffffffffu
#define DYN_THREADS 256
#define DYN_BLOCKS 12
#define SW_THREADS 128
#define SW_BLOCKS 9
#define SWITCH_THREADS 64
#define SWITCH_BLOCKS 10
#define GROUP_THREADS 192
#define GROUP_BLOCKS 6
#define TILE 16
#define N 64

__global__ void dynamic(const int* in, int* out) {
  extern __shared__ int buffer[];
  const int t = threadIdx.x;
  int v = in[blockIdx.x * DYN_THREADS + t];
  buffer[t] = v;
  __syncthreads();
  v = v * 7 + buffer[(t + 96) % DYN_THREADS];
  int s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(FULL, s, o);
  out[blockIdx.x * DYN_THREADS + t] = v ^ s;
}

__global__ void warp_talk(int* out) {
  __shared__ int slot[SW_THREADS];
  const int t = threadIdx.x;
  int v = t * 31 + blockIdx.x * 1000;
  slot[t] = v;
  __syncwarp();
  v += slot[(t & ~31) | ((t + 5) & 31)];
  __syncwarp();
  slot[t] = v * 3;
  __syncwarp();
  v -= slot[(t & ~31) | ((t + 17) & 31)];
  int s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(FULL, s, o);
  out[blockIdx.x * SW_THREADS + t] = t % 32 == 0 ? s : v;
}

__global__ void lanes_switch(int* out) {
  const int t = threadIdx.x;
  int v = t * 13 + blockIdx.x;
  switch (v % 5) {
    case 0:
      v += 100;
      break;
    case 1:
      v *= 3;
      // fall through
    case 2:
      for (int i = 0; i < 6; ++i) {
        if (i % 2) continue;
        v += i;
      }
      break;
    default:
      v = -v;
  }
  const int sum = __reduce_add_sync(FULL, v);
  out[blockIdx.x * SWITCH_THREADS + t] = v * 2 + (sum & 1023);
}

__global__ void groups(int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int slot[GROUP_THREADS];
  int v = static_cast<int>(cta.thread_rank()) * 9 + blockIdx.x;
  for (int r = 0; r < 3; ++r) {
    slot[cta.thread_rank()] = v;
    cg::sync(cta);
    v = v * 5 + slot[(cta.thread_rank() + 40 * (r + 1)) % cta.size()];
    cta.sync();
  }
  v ^= __shfl_xor_sync(FULL, v, 6);
  out[blockIdx.x * GROUP_THREADS + cta.thread_rank()] = v;
}

__global__ void tiles(const float* A, const float* B, float* C, int wA, int wB) {
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int aBegin = wA * TILE * by;
  const int aEnd = aBegin + wA - 1;
  const int aStep = TILE;
  const int bBegin = TILE * bx;
  const int bStep = TILE * wB;
  float sum = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * TILE * by + TILE * bx + wB * ty + tx] = sum;
}

static unsigned checksum(const int* a, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i) h = (h ^ static_cast<unsigned>(a[i])) * 16777619u;
  return h;
}

static void report(const char* name, const int* got, const int* want, int n) {
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != want[i];
  printf("%s: %s, %d of %d differ, checksum %08x\n", name, wrong ? "FAIL" : "PASS", wrong, n,
         checksum(got, n));
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 1 << 20);

  // dynamic
  const int dn = DYN_BLOCKS * DYN_THREADS;
  static int in[dn], got[dn], want[dn];
  for (int i = 0; i < dn; ++i) in[i] = (i * 2654435761u) >> 14 & 0xffff;
  int* d_in;
  cudaMalloc(&d_in, sizeof in);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  dynamic<<<DYN_BLOCKS, DYN_THREADS, DYN_THREADS * sizeof(int)>>>(d_in, d_out);
  cudaMemcpy(got, d_out, dn * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < DYN_BLOCKS; ++b) {
    int v[DYN_THREADS];
    for (int t = 0; t < DYN_THREADS; ++t) {
      const int* x = in + b * DYN_THREADS;
      v[t] = x[t] * 7 + x[(t + 96) % DYN_THREADS];
    }
    for (int t = 0; t < DYN_THREADS; ++t) {
      int s = 0;
      for (int l = 0; l < 32; ++l) s += v[(t & ~31) + l];
      want[b * DYN_THREADS + t] = v[t] ^ s;
    }
  }
  report("dynamic", got, want, dn);

  // warp_talk
  const int sn = SW_BLOCKS * SW_THREADS;
  cudaMemset(d_out, 0, sn * sizeof(int));
  warp_talk<<<SW_BLOCKS, SW_THREADS>>>(d_out);
  cudaMemcpy(got, d_out, sn * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < SW_BLOCKS; ++b) {
    int v[SW_THREADS], slot[SW_THREADS];
    for (int t = 0; t < SW_THREADS; ++t) slot[t] = v[t] = t * 31 + b * 1000;
    for (int t = 0; t < SW_THREADS; ++t) v[t] += slot[(t & ~31) | ((t + 5) & 31)];
    for (int t = 0; t < SW_THREADS; ++t) slot[t] = v[t] * 3;
    for (int t = 0; t < SW_THREADS; ++t) v[t] -= slot[(t & ~31) | ((t + 17) & 31)];
    for (int t = 0; t < SW_THREADS; ++t) {
      int s = 0;
      for (int u = t; u < (t & ~31) + 32; ++u) s += v[u];
      want[b * SW_THREADS + t] = t % 32 == 0 ? s : v[t];
    }
  }
  report("warp_talk", got, want, sn);

  // switch
  const int wn = SWITCH_BLOCKS * SWITCH_THREADS;
  lanes_switch<<<SWITCH_BLOCKS, SWITCH_THREADS>>>(d_out);
  cudaMemcpy(got, d_out, wn * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < SWITCH_BLOCKS; ++b) {
    int v[SWITCH_THREADS];
    for (int t = 0; t < SWITCH_THREADS; ++t) {
      int x = t * 13 + b;
      switch (x % 5) {
        case 0: x += 100; break;
        case 1: x *= 3; x += 0 + 2 + 4; break;
        case 2: x += 0 + 2 + 4; break;
        default: x = -x;
      }
      v[t] = x;
    }
    for (int t = 0; t < SWITCH_THREADS; ++t) {
      int sum = 0;
      for (int l = 0; l < 32; ++l) sum += v[(t & ~31) + l];
      want[b * SWITCH_THREADS + t] = v[t] * 2 + (sum & 1023);
    }
  }
  report("switch", got, want, wn);

  // groups
  const int gn = GROUP_BLOCKS * GROUP_THREADS;
  groups<<<GROUP_BLOCKS, GROUP_THREADS>>>(d_out);
  cudaMemcpy(got, d_out, gn * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < GROUP_BLOCKS; ++b) {
    int v[GROUP_THREADS], slot[GROUP_THREADS];
    for (int t = 0; t < GROUP_THREADS; ++t) v[t] = t * 9 + b;
    for (int r = 0; r < 3; ++r) {
      for (int t = 0; t < GROUP_THREADS; ++t) slot[t] = v[t];
      for (int t = 0; t < GROUP_THREADS; ++t)
        v[t] = v[t] * 5 + slot[(t + 40 * (r + 1)) % GROUP_THREADS];
    }
    for (int t = 0; t < GROUP_THREADS; ++t) want[b * GROUP_THREADS + t] = v[t] ^ v[t ^ 6];
  }
  report("groups", got, want, gn);

  // tiles: small integers, so every sum is exact in float whatever the order.
  static float A[N * N], B[N * N], C[N * N];
  for (int i = 0; i < N * N; ++i) {
    A[i] = static_cast<float>((i * 7) % 11 - 5);
    B[i] = static_cast<float>((i * 5) % 13 - 6);
  }
  float *d_A, *d_B, *d_C;
  cudaMalloc(&d_A, sizeof A);
  cudaMalloc(&d_B, sizeof B);
  cudaMalloc(&d_C, sizeof C);
  cudaMemcpy(d_A, A, sizeof A, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, B, sizeof B, cudaMemcpyHostToDevice);
  tiles<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(d_A, d_B, d_C, N, N);
  cudaMemcpy(C, d_C, sizeof C, cudaMemcpyDeviceToHost);
  static int cg[N * N], cw[N * N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < N; ++k) s += A[i * N + k] * B[k * N + j];
      cw[i * N + j] = static_cast<int>(s);
      cg[i * N + j] = static_cast<int>(C[i * N + j]);
    }
  report("tiles", cg, cw, N * N);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
