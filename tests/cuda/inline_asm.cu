// Inline PTX: the GPU runs it; the emulator refuses it. Expected: the GPU
// prints the lane ids; the emulator stops (non-zero status) with a message
// naming this file and the line of the asm statement (the rewriter may refuse
// it already at compile time).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void lane_ids(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 64 * sizeof(unsigned));
  lane_ids<<<1, 64>>>(d);
  unsigned h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("lane ids: %u %u %u %u\n", h[0], h[31], h[32], h[63]);
  return 0;
}
