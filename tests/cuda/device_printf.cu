// compare: multiset
// Device printf: each thread of 2 blocks of 4 prints a line (their order is
// not defined on the GPU); the host prints around the launch. The device
// lines come out at the synchronize, after "host: after launch". A last
// kernel prints without any synchronize before exit: on the GPU its output is
// lost (the facts file says device output is not flushed at exit).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void hello(int tag) {
  printf("block %d thread %d tag %d float %.3f str %s char %c hex %x\n", blockIdx.x, threadIdx.x,
         tag, threadIdx.x * 0.5f, "ok", 'A' + threadIdx.x, 255);
}

__global__ void plain() { printf("plain line\n"); }

__global__ void lost() { printf("never flushed\n"); }

int main() {
  std::printf("host: before launch\n");
  hello<<<2, 4>>>(7);
  std::printf("host: after launch\n");
  cudaDeviceSynchronize();
  std::printf("host: after synchronize\n");
  plain<<<1, 2>>>();
  cudaDeviceSynchronize();
  lost<<<1, 1>>>();
  std::printf("host: exit without synchronize\n");
  return 0;
}
