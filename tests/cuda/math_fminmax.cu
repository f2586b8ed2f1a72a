// fminf, fmaxf, fmin and fmax in device code over every pair of edge values:
// zeros of both signs, subnormals, one, the largest finite, infinities, and
// NaNs of both signs, quiet and signalling, with and without a payload. One
// line per function and first operand: the result's bits for each second
// operand. What the host's libm gives for these is not what the GPU gives
// (the NaN returned, the sign of a zero), so the emulator needs the GPU's.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kF = 14;
__constant__ unsigned kFloat[kF] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x3f800000,
                                    0xbf800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
                                    0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345};
constexpr int kD = 12;
__constant__ unsigned long long kDouble[kD] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0xfff8000000000000ull, 0x7ff8000000012345ull, 0x7ff0000000000001ull, 0xfff0000000012345ull};

__global__ void floats(unsigned* out) {
  const int i = threadIdx.x / kF, j = threadIdx.x % kF;
  const float a = __uint_as_float(kFloat[i]), b = __uint_as_float(kFloat[j]);
  out[threadIdx.x * 2] = __float_as_uint(fminf(a, b));
  out[threadIdx.x * 2 + 1] = __float_as_uint(fmaxf(a, b));
}

__global__ void doubles(unsigned long long* out) {
  const int i = threadIdx.x / kD, j = threadIdx.x % kD;
  const double a = __longlong_as_double(kDouble[i]), b = __longlong_as_double(kDouble[j]);
  out[threadIdx.x * 2] = __double_as_longlong(fmin(a, b));
  out[threadIdx.x * 2 + 1] = __double_as_longlong(fmax(a, b));
}

int main() {
  unsigned* f;
  unsigned long long* d;
  cudaMallocManaged(&f, kF * kF * 2 * sizeof(unsigned));
  cudaMallocManaged(&d, kD * kD * 2 * sizeof(unsigned long long));
  floats<<<1, kF * kF>>>(f);
  doubles<<<1, kD * kD>>>(d);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  const char* fname[2] = {"fminf", "fmaxf"};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < kF; ++i) {
      printf("%s %d:", fname[k], i);
      for (int j = 0; j < kF; ++j) printf(" %08x", f[(i * kF + j) * 2 + k]);
      printf("\n");
    }
  const char* dname[2] = {"fmin", "fmax"};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < kD; ++i) {
      printf("%s %d:", dname[k], i);
      for (int j = 0; j < kD; ++j) printf(" %016llx", d[(i * kD + j) * 2 + k]);
      printf("\n");
    }
  return 0;
}
