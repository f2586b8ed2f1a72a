// A loop that checks a volatile flag on every step of its work, the flag never set:
// to the emulator's spin-wait counting (README, "Threads and blocks that wait for one
// another") every check is a poll of an unchanged value, though the loop is no wait.
// What the counting costs: the whole process's time against a build before it (A/B).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void search(volatile int* stop, unsigned* out, int steps) {
  unsigned h = threadIdx.x + blockIdx.x * 977u;
  for (int i = 0; i < steps; ++i) {
    if (*stop) break;
    h = h * 2654435761u + (h >> 13);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = h;
}

int main() {
  int* stop;
  unsigned* out;
  cudaMalloc(&stop, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(unsigned));
  cudaMemset(stop, 0, sizeof(int));
  search<<<2, 32>>>(stop, out, 3000000);
  unsigned h[64];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  unsigned x = 0;
  for (int i = 0; i < 64; ++i) x ^= h[i];
  printf("%s %08x\n", cudaGetErrorString(cudaDeviceSynchronize()), x);
  return 0;
}
