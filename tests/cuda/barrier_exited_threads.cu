// __syncthreads after some threads of the block have returned. PTX's `exit` says a
// barrier that only returned threads hold up is released, so the threads still running
// go on synchronizing among themselves (divergent_barrier.cu is the smallest case). Each
// kernel's result is fixed whatever the threads' timing; the host computes it too and
// prints whether the two agree.
#include <cuda_runtime.h>

#include <cstdio>

// The threads of the last warp return after a little work, while the others already
// wait at the barrier; then every remaining thread reads what all of them wrote.
__global__ void late_return(int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  s[t] = t * 3 + 1;
  if (t >= 96) {
    unsigned x = t;
    for (int i = 0; i < 2000; ++i) x = x * 1103515245u + 12345u;
    s[t] = static_cast<int>(x >> 22);
    return;
  }
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[t] + s[127 - t];
}

// Thread t runs t % 7 + 1 rounds of write, barrier, read the neighbour, barrier, then
// returns: the barriers go on among fewer and fewer threads (a tree builder's loop).
__global__ void shrinking_rounds(int* out) {
  __shared__ int s[256];
  const int t = threadIdx.x, n = blockDim.x;
  const int rounds = t % 7 + 1;
  s[t] = 0;
  unsigned acc = 0;
  for (int i = 0; i < rounds; ++i) {
    s[t] += i + t;
    __syncthreads();
    acc = acc * 31 + s[(t + 1) % n];
    __syncthreads();
  }
  out[blockIdx.x * 256 + t] = static_cast<int>(acc);
}

// __syncthreads_count/_and/_or count only the threads that arrive: warp 1 of 3 has
// returned at the start, the rest vote.
__global__ void votes_without_a_warp(int* out) {
  const int t = threadIdx.x;
  if (t >= 32 && t < 64) return;
  const int count = __syncthreads_count(t % 3 == 0);
  const int all = __syncthreads_and(t != 5);
  const int any = __syncthreads_or(t == 70);
  const int all_even = __syncthreads_and((t & 1) == 0 || t > 200);
  if (t == 0) {
    out[blockIdx.x * 4 + 0] = count;
    out[blockIdx.x * 4 + 1] = all;
    out[blockIdx.x * 4 + 2] = any;
    out[blockIdx.x * 4 + 3] = all_even;
  }
}

// One thread left: every other thread of the block returns, thread 0 passes three
// barriers alone.
__global__ void last_one_standing(int* out) {
  __shared__ int s;
  if (threadIdx.x != 0) return;
  s = 7;
  __syncthreads();
  s *= 3;
  __syncthreads();
  const int c = __syncthreads_count(1);
  out[blockIdx.x] = s * 100 + c;
}

// The host's answer to shrinking_rounds, round by round.
void shrinking_rounds_host(int n, int* out) {
  int s[256] = {0}, alive[256];
  unsigned acc[256] = {0};
  for (int t = 0; t < n; ++t) alive[t] = t % 7 + 1;
  for (int i = 0; i < 7; ++i) {
    for (int t = 0; t < n; ++t)
      if (i < alive[t]) s[t] += i + t;
    for (int t = 0; t < n; ++t)
      if (i < alive[t]) acc[t] = acc[t] * 31 + s[(t + 1) % n];
  }
  for (int t = 0; t < n; ++t) out[t] = static_cast<int>(acc[t]);
}

unsigned long long checksum(const int* v, int n) {
  unsigned long long sum = 0;
  for (int i = 0; i < n; ++i) sum = (sum * 7 + static_cast<unsigned>(v[i])) % 1000000007;
  return sum;
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * 256 * sizeof(int));
  static int h[4 * 256], want[4 * 256];

  cudaMemset(d, 0, 4 * 256 * sizeof(int));
  late_return<<<4, 128>>>(d);
  cudaMemcpy(h, d, 4 * 128 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 128; ++t) {
      unsigned x = 127 - t;
      int other = static_cast<int>(x * 3 + 1);
      if (x >= 96) {
        for (int i = 0; i < 2000; ++i) x = x * 1103515245u + 12345u;
        other = static_cast<int>(x >> 22);
      }
      want[b * 128 + t] = t >= 96 ? 0 : t * 3 + 1 + other;
    }
  printf("late_return: %d %d %d, checksum %llu, %s\n", h[0], h[95], h[3 * 128 + 50],
         checksum(h, 4 * 128), checksum(want, 4 * 128) == checksum(h, 4 * 128) ? "as computed" : "NOT as computed");

  shrinking_rounds<<<4, 256>>>(d);
  cudaMemcpy(h, d, 4 * 256 * sizeof(int), cudaMemcpyDeviceToHost);
  shrinking_rounds_host(256, want);
  for (int b = 1; b < 4; ++b)
    for (int t = 0; t < 256; ++t) want[b * 256 + t] = want[t];
  printf("shrinking_rounds: %d %d %d, checksum %llu, %s\n", h[0], h[6], h[255],
         checksum(h, 4 * 256), checksum(want, 4 * 256) == checksum(h, 4 * 256) ? "as computed" : "NOT as computed");

  votes_without_a_warp<<<2, 96>>>(d);
  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  // Threads 0-31 and 64-95 vote: 21 multiples of 3 among them.
  printf("votes_without_a_warp: count %d (21) and %d (0) or %d (1) even %d (0); block 1 %d %d %d %d\n",
         h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);

  last_one_standing<<<3, 64>>>(d);
  cudaMemcpy(h, d, 3 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("last_one_standing: %d %d %d (2101)\n", h[0], h[1], h[2]);

  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
