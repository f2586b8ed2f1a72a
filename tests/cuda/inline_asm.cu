// Inline PTX reading %laneid: the GPU runs it, and the emulator's rewriter
// translates this small subset of PTX (see ptx_sregs.cu), so both print the
// lane ids. Other instructions are refused at compile time with the line.
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
