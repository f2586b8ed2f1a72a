// Inline PTX min.f64, max.f64, abs.f64 and neg.f64 over every pair of edge
// values: zeros of both signs, a subnormal, one, infinities, and NaNs of both
// signs, quiet and signalling, with and without a payload. One line per
// instruction and first operand: the result's bits for each second operand
// (abs and neg: one line of all operands). Which NaN comes out, and the sign
// of a zero, are the hardware's to say.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kD = 12;
__constant__ unsigned long long kDouble[kD] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0xfff8000000000000ull, 0x7ff8000000012345ull, 0x7ff0000000000001ull, 0xfff0000000012345ull};

__global__ void pairs(unsigned long long* out) {
  const int i = threadIdx.x / kD, j = threadIdx.x % kD;
  const double a = __longlong_as_double(kDouble[i]), b = __longlong_as_double(kDouble[j]);
  double mn, mx;
  asm("min.f64 %0, %1, %2;" : "=d"(mn) : "d"(a), "d"(b));
  asm("max.f64 %0, %1, %2;" : "=d"(mx) : "d"(a), "d"(b));
  out[threadIdx.x * 2] = __double_as_longlong(mn);
  out[threadIdx.x * 2 + 1] = __double_as_longlong(mx);
}

__global__ void singles(unsigned long long* out) {
  const double a = __longlong_as_double(kDouble[threadIdx.x]);
  double ab, ng;
  asm("abs.f64 %0, %1;" : "=d"(ab) : "d"(a));
  asm("neg.f64 %0, %1;" : "=d"(ng) : "d"(a));
  out[threadIdx.x * 2] = __double_as_longlong(ab);
  out[threadIdx.x * 2 + 1] = __double_as_longlong(ng);
}

int main() {
  unsigned long long *p, *s;
  cudaMallocManaged(&p, kD * kD * 2 * sizeof(unsigned long long));
  cudaMallocManaged(&s, kD * 2 * sizeof(unsigned long long));
  pairs<<<1, kD * kD>>>(p);
  singles<<<1, kD>>>(s);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  const char* name[2] = {"min.f64", "max.f64"};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < kD; ++i) {
      printf("%s %d:", name[k], i);
      for (int j = 0; j < kD; ++j) printf(" %016llx", p[(i * kD + j) * 2 + k]);
      printf("\n");
    }
  const char* single[2] = {"abs.f64", "neg.f64"};
  for (int k = 0; k < 2; ++k) {
    printf("%s:", single[k]);
    for (int i = 0; i < kD; ++i) printf(" %016llx", s[i * 2 + k]);
    printf("\n");
  }
  return 0;
}
