// Where the hardware sine and cosine keep to the rule the emulator's table
// relies on (box_muller_tables.cu checked [0, 2^22 2 pi]): over every
// non-negative float, finite or not, do __sinf and __cosf still depend only
// on k = floor(frac(__fmul_rz(x, 0.159154943f)) * 2^25)? Counts conflicts
// per range of x and prints the special cases, for a later use of the table
// by __sinf, __cosf and __sincosf in any device code.
//
//   nvcc -O3 -arch=sm_90 -o mufu_range mufu_range.cu && ./mufu_range
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

typedef unsigned long long u64;
const uint32_t kUnset = 0xffffffffu;
const uint32_t kFractions = 1u << 25;

__device__ uint32_t fraction_of(float x) {
  const float t = __fmul_rz(x, 0.159154943f);
  const float f = t - floorf(t);
  return static_cast<uint32_t>(f * 33554432.0f) & (kFractions - 1);
}

// Ranges: 0 [0, 2^22 2pi]; 1 (2^22 2pi, 2^23 2pi]; 2 (2^23 2pi, 2^24 2pi];
// 3 beyond, finite; 4 infinity and NaN.
__device__ int range_of(float x) {
  if (!isfinite(x)) return 4;
  if (x <= 4194304.0f * 6.2831855f) return 0;
  if (x <= 8388608.0f * 6.2831855f) return 1;
  if (x <= 16777216.0f * 6.2831855f) return 2;
  return 3;
}

// Phase 0 fills the table from the measured range; phase 1 checks the rest
// against it.
__global__ void sweep(int phase, uint32_t first, uint32_t count, uint32_t* sin_table, uint32_t* cos_table,
                      u64* seen, u64* conflicts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float x = __uint_as_float(first + i);
  const int r = range_of(x);
  if ((r == 0) != (phase == 0)) return;
  const uint32_t s = __float_as_uint(__sinf(x)), c = __float_as_uint(__cosf(x));
  atomicAdd(&seen[r], 1ull);
  if (r == 4) return;
  const uint32_t k = fraction_of(x);
  const uint32_t old_s = atomicCAS(&sin_table[k], kUnset, s);
  const uint32_t old_c = atomicCAS(&cos_table[k], kUnset, c);
  if ((old_s != kUnset && old_s != s) || (old_c != kUnset && old_c != c)) atomicAdd(&conflicts[r], 1ull);
}

__global__ void specials(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[3 * i] = __sinf(in[i]);
    out[3 * i + 1] = __cosf(in[i]);
    out[3 * i + 2] = __tanf(in[i]);
  }
}

int main() {
  uint32_t *d_sin, *d_cos;
  u64* d_counts;
  cudaMalloc(&d_sin, 4ull * kFractions);
  cudaMalloc(&d_cos, 4ull * kFractions);
  cudaMalloc(&d_counts, 16 * 8);
  cudaMemset(d_sin, 0xff, 4ull * kFractions);
  cudaMemset(d_cos, 0xff, 4ull * kFractions);
  cudaMemset(d_counts, 0, 16 * 8);
  // Every float with the sign bit clear, 0 to NaN.
  const uint32_t chunk = 1u << 28;
  for (int phase = 0; phase < 2; ++phase)
    for (u64 first = 0; first < 0x80000000ull; first += chunk)
      sweep<<<chunk / 256, 256>>>(phase, static_cast<uint32_t>(first), chunk, d_sin, d_cos, d_counts,
                                  d_counts + 8);
  u64 counts[16];
  cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost);
  const char* names[5] = {"[0, 2^22 2pi]", "(2^22 2pi, 2^23 2pi]", "(2^23 2pi, 2^24 2pi]", "beyond, finite",
                          "inf and nan"};
  for (int r = 0; r < 5; ++r) printf("range %-22s floats %llu conflicts %llu\n", names[r], counts[r], counts[8 + r]);
  const float in[] = {0.0f, -0.0f, 1e-45f, 1e-30f, 1.0f, 3.14159265f, 6.28318531f, 26353588.0f, 26353590.0f,
                      1e8f, 1e10f, 3e38f, INFINITY, -INFINITY, NAN, -1.0f, -1e10f};
  const int n = sizeof in / sizeof in[0];
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, 3 * sizeof in);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  specials<<<1, 1>>>(d_in, d_out, n);
  float out[3 * n];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    printf("x %a: __sinf %a __cosf %a __tanf %a\n", in[i], out[3 * i], out[3 * i + 1], out[3 * i + 2]);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
