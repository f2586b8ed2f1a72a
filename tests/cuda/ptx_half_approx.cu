// ex2.approx.f16 and ex2.approx.f16x2 in inline PTX against cuda_fp16.h's
// hexp2 and h2exp2, over every one of the 65536 halves (paired with their
// bitwise complement in the f16x2 form): how many results differ, the
// first few that do, and an FNV-1a hash of each instruction's results.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void exp2s(unsigned short* scalar, unsigned* pair, unsigned short* library, unsigned* library_pair) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short h = static_cast<unsigned short>(i);
  unsigned short r;
  asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(h));
  scalar[i] = r;
  const unsigned packed = i | ((~i & 0xffffu) << 16);
  unsigned p;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(p) : "r"(packed));
  pair[i] = p;
  library[i] = __half_as_ushort(hexp2(__ushort_as_half(h)));
  const __half2 two = h2exp2(__halves2half2(__ushort_as_half(h), __ushort_as_half(static_cast<unsigned short>(~i))));
  library_pair[i] = __half_as_ushort(__low2half(two)) | (static_cast<unsigned>(__half_as_ushort(__high2half(two))) << 16);
}

unsigned long long fnv(const unsigned char* p, size_t n) {
  unsigned long long h = 1469598103934665603ull;
  for (size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 1099511628211ull;
  return h;
}

int main() {
  const int n = 65536;
  unsigned short *scalar, *library;
  unsigned *pair, *library_pair;
  cudaMallocManaged(&scalar, n * 2);
  cudaMallocManaged(&library, n * 2);
  cudaMallocManaged(&pair, n * 4);
  cudaMallocManaged(&library_pair, n * 4);
  exp2s<<<n / 256, 256>>>(scalar, pair, library, library_pair);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int differ = 0, differ_pair = 0;
  for (int i = 0; i < n; ++i) {
    if (scalar[i] != library[i] && differ++ < 8)
      printf("ex2.approx.f16 %04x: %04x, hexp2 %04x\n", i, scalar[i], library[i]);
    if (pair[i] != library_pair[i] && differ_pair++ < 8)
      printf("ex2.approx.f16x2 %08x: %08x, h2exp2 %08x\n", i | ((~i & 0xffff) << 16), pair[i], library_pair[i]);
  }
  printf("ex2.approx.f16: %d of %d differ from hexp2; hash %016llx\n", differ, n,
         fnv(reinterpret_cast<unsigned char*>(scalar), n * 2));
  printf("ex2.approx.f16x2: %d of %d differ from h2exp2; hash %016llx\n", differ_pair, n,
         fnv(reinterpret_cast<unsigned char*>(pair), n * 4));
  return 0;
}
