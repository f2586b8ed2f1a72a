// gpu: skip (what matters is the emulator's warnings; the race's outcome is not printed)
// Flags between warps that do not order what they guard, each warned about with its two
// lines (tests/testsuite/emulation.rs): the setter with no fence between its data and
// its flag; a one-time `if (flag)` whose outcome depends on the warps' timing; data
// written after the flag.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void unfenced(int* out) {
  __shared__ int data[32];
  __shared__ volatile int flag;
  const unsigned t = threadIdx.x, lane = t & 31;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t >= 32) {
    data[lane] = static_cast<int>(lane * 5);
    if (lane == 31) flag = 1;
  } else if (lane == 0) {
    while (flag == 0) {
    }
    __threadfence_block();
    out[0] = data[31];
  }
}

__global__ void one_time(int* out) {
  __shared__ volatile int flag;
  const unsigned t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t == 32) flag = 1;
  if (t == 0) {
    if (flag) out[1] = 1;
  }
}

__global__ void after_the_flag(int* out) {
  __shared__ int data[2];
  __shared__ volatile int flag;
  const unsigned t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t == 32) {
    data[0] = 4;
    __threadfence_block();
    flag = 1;
    data[1] = 9;
  } else if (t == 0) {
    while (flag == 0) {
    }
    __threadfence_block();
    out[2] = data[0] + data[1];
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  unfenced<<<1, 64>>>(d);
  one_time<<<1, 64>>>(d);
  after_the_flag<<<1, 64>>>(d);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
