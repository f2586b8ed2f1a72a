// Launch validation: each invalid configuration sets an error, does not run
// the kernel, and is not sticky. For each case: what cudaPeekAtLastError says
// (twice: it does not clear), what cudaGetLastError says (then 0: it clears),
// what cudaDeviceSynchronize returns, and whether the kernel ran; then a
// valid launch must work.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void mark(int* ran) { atomicAdd(ran, 1); }

__global__ void mark_shared(int* ran) {
  extern __shared__ char buf[];
  buf[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(ran, buf[0]);
}

int* g_ran = nullptr;

int ran() {
  int v = -1;
  cudaMemcpy(&v, g_ran, sizeof v, cudaMemcpyDeviceToHost);
  cudaMemset(g_ran, 0, sizeof(int));
  return v;
}

void report(const char* name) {
  cudaError_t p1 = cudaPeekAtLastError();
  cudaError_t p2 = cudaPeekAtLastError();
  cudaError_t g1 = cudaGetLastError();
  cudaError_t g2 = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  std::printf("%-28s peek %d %d  get %d %d  sync %d  ran %d  %s / %s\n", name, p1, p2, g1, g2, s,
              ran(), cudaGetErrorName(p1), cudaGetErrorString(p1));
}

int main() {
  cudaMalloc(&g_ran, sizeof(int));
  cudaMemset(g_ran, 0, sizeof(int));

  mark<<<1, 32>>>(g_ran);
  report("valid 1x32");
  mark<<<0, 32>>>(g_ran);
  report("grid 0");
  mark<<<1, 0>>>(g_ran);
  report("block 0");
  mark<<<1, 1025>>>(g_ran);
  report("block 1025");
  mark<<<1, 1024>>>(g_ran);
  report("block 1024");
  mark<<<1, dim3(32, 32, 2)>>>(g_ran);
  report("block 32x32x2");
  mark<<<1, dim3(1, 1, 65)>>>(g_ran);
  report("block z 65");
  mark<<<1, dim3(1, 1, 64)>>>(g_ran);
  report("block z 64");
  mark<<<1, dim3(1, 1025, 1)>>>(g_ran);
  report("block y 1025");
  mark<<<dim3(1, 65536, 1), 1>>>(g_ran);
  report("grid y 65536");
  mark<<<dim3(1, 1, 65536), 1>>>(g_ran);
  report("grid z 65536");
  mark<<<dim3(1, 65535, 1), 1>>>(g_ran);
  report("grid y 65535");
  mark<<<dim3(2, 3, 4), dim3(4, 2, 2)>>>(g_ran);
  report("grid 2x3x4 block 4x2x2");
  mark_shared<<<1, 32, 49152>>>(g_ran);
  report("shared 49152");
  mark_shared<<<1, 32, 49153>>>(g_ran);
  report("shared 49153");
  cudaError_t a = cudaFuncSetAttribute(mark_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  std::printf("opt in 100000: %d\n", a);
  mark_shared<<<1, 32, 100000>>>(g_ran);
  report("shared 100000 opted in");
  mark_shared<<<1, 32, 100001>>>(g_ran);
  report("shared 100001 opted in");
  a = cudaFuncSetAttribute(mark_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449);
  std::printf("opt in 232449: %d\n", a);
  std::printf("after failed opt in: get %d\n", cudaGetLastError());

  // Two errors in a row: the last one is kept.
  mark<<<0, 1>>>(g_ran);
  mark_shared<<<1, 1, 1 << 20>>>(g_ran);
  report("two bad launches");
  mark<<<3, 5>>>(g_ran);
  report("valid 3x5 after errors");
  cudaFree(g_ran);
  return 0;
}
