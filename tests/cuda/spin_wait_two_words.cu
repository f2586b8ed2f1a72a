// Waits that poll two words in turn, each of which keeps its value while the thread
// waits: nothing but the GPU's scheduler (in the emulator, the polls) lets the threads
// they wait for run.
//
// 1. watched: block b waits for block b + 1's volatile flag and, on each turn of the
//    loop, also reads a volatile abort flag that nobody sets;
// 2. both: block b waits until blocks b + 1 and b + 2 have both set their flags (once
//    the first is set, the loop reads the two flags in turn);
// 3. in_block: thread 0 of each block waits for two volatile flags its last thread
//    (another warp) sets, which first waits for thread 0's go-ahead (thread 0 gives it
//    while the rest of its warp returns: in the emulator's warp lock step, a meeting
//    the poller's wait must let complete). (With the flags in shared memory it runs
//    the same, but the warp lock step warns that warps talk with no barrier between.)
#include <cuda_runtime.h>

#include <cstdio>

__global__ void watched(volatile int* flags, volatile int* abort_flag, long long* values) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x != 0) return;
  long long next = 0;
  if (b + 1 < gridDim.x) {
    while (flags[b + 1] == 0) {
      if (*abort_flag != 0) return;
    }
    next = values[b + 1];
  }
  values[b] = next * 7 + b + 1;
  __threadfence();
  flags[b] = 1;
}

__global__ void both(volatile int* flags, long long* values) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x != 0) return;
  long long sum = 0;
  if (b + 2 < gridDim.x) {
    while (flags[b + 1] == 0 || flags[b + 2] == 0) {
    }
    sum = values[b + 1] + 2 * values[b + 2];
  }
  values[b] = sum % 1000003 + b;
  __threadfence();
  flags[b] = 1;
}

__global__ void in_block(volatile int* words, int* out) {
  volatile int* go = &words[3 * blockIdx.x];
  volatile int* first = go + 1;
  volatile int* second = go + 2;
  if (threadIdx.x == blockDim.x - 1) {
    while (*go == 0) {
    }
    *first = 10 + blockIdx.x;
    __threadfence_block();
    *second = 20 + blockIdx.x;
  }
  if (threadIdx.x == 0) {
    *go = 1;
    while (*first == 0 || *second == 0) {
    }
    out[blockIdx.x] = *first * 100 + *second;
  }
}

int main() {
  const int blocks = 16;
  int *flags, *abort_flag, *out;
  long long* values;
  cudaMalloc(&flags, blocks * sizeof(int));
  cudaMalloc(&abort_flag, sizeof(int));
  cudaMalloc(&values, blocks * sizeof(long long));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemset(flags, 0, blocks * sizeof(int));
  cudaMemset(abort_flag, 0, sizeof(int));
  watched<<<blocks, 32>>>(flags, abort_flag, values);
  long long v[blocks];
  cudaMemcpy(v, values, sizeof v, cudaMemcpyDeviceToHost);
  printf("watched: block 0 %lld, block %d %lld\n", v[0], blocks - 1, v[blocks - 1]);
  cudaMemset(flags, 0, blocks * sizeof(int));
  both<<<blocks, 32>>>(flags, values);
  cudaMemcpy(v, values, sizeof v, cudaMemcpyDeviceToHost);
  printf("both: block 0 %lld, block 1 %lld\n", v[0], v[1]);
  int* words;
  cudaMalloc(&words, 3 * blocks * sizeof(int));
  cudaMemset(words, 0, 3 * blocks * sizeof(int));
  in_block<<<blocks, 96>>>(words, out);
  int o[blocks];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  printf("in_block:");
  for (int b = 0; b < blocks; ++b) printf(" %d", o[b]);
  printf("\n");
  printf("status %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
