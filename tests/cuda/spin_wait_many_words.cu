// A wait that polls eight words in turn, each of which keeps its value while the
// thread waits, as a Barnes-Hut tree code's centre-of-mass pass waits for a
// cell's eight children: thread 0 of block b reads the ready flags of blocks
// b + 1 ... b + 8, in turn, those it has not seen set yet, and once all are set
// adds up their values. Block 15, with no later blocks, goes first. A GPU runs
// the 16 blocks at once; an emulator that runs blocks in turns must see that
// block 0's thread waits, though it reads a different word each time.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kBlocks = 16, kChildren = 8;

__global__ void gather(volatile int* ready, volatile long long* value) {
  const int b = blockIdx.x;
  if (threadIdx.x != 0) return;
  bool seen[kChildren] = {};
  int missing = 0;
  for (int i = 1; i <= kChildren; ++i) missing += b + i < kBlocks;
  long long sum = b + 1;
  while (missing > 0) {
    for (int i = 1; i <= kChildren; ++i) {
      const int child = b + i;
      if (child < kBlocks && !seen[i - 1] && ready[child] != 0) {
        seen[i - 1] = true;
        sum += value[child] % 1000;
        --missing;
      }
    }
  }
  value[b] = sum;
  __threadfence();
  ready[b] = 1;
}

int main() {
  int* ready;
  long long* value;
  cudaMalloc(&ready, kBlocks * sizeof(int));
  cudaMalloc(&value, kBlocks * sizeof(long long));
  cudaMemset(ready, 0, kBlocks * sizeof(int));
  gather<<<kBlocks, 32>>>(ready, value);
  cudaError_t err = cudaDeviceSynchronize();
  printf("gather: %s\n", cudaGetErrorString(err));
  long long got[kBlocks], expected[kBlocks];
  cudaMemcpy(got, value, sizeof got, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int b = kBlocks - 1; b >= 0; --b) {
    expected[b] = b + 1;
    for (int i = 1; i <= kChildren && b + i < kBlocks; ++i) expected[b] += expected[b + i] % 1000;
    right += got[b] == expected[b];
  }
  printf("%d of %d blocks as expected; block 0 %lld, block 7 %lld\n", right, kBlocks, got[0], got[7]);
  return 0;
}
