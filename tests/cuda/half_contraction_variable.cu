// Contraction of half and bfloat16 arithmetic through named variables: a
// product kept in a variable, used once or twice (also stored), then added;
// a dot-product loop with the product in a temporary. For each form, over
// 16384 random inputs: a hash of the results and how many equal the fused
// (one rounding) and the unfused (two roundings) value.
#define CASES                                                                                      \
  { __half t = a * b; __half r = t + c;                                                            \
    STORE(0, hb(r), hb(__hfma(a, b, c)), hb(__hadd_rn(__hmul_rn(a, b), c))) }                      \
  { __half t = __hmul(a, b); __half r = __hadd(t, c);                                              \
    STORE(1, hb(r), hb(__hfma(a, b, c)), hb(__hadd_rn(__hmul_rn(a, b), c))) }                      \
  { __half t = a * b; keep[i] = hb(t); __half r = t + c;                                           \
    STORE(2, hb(r), hb(__hfma(a, b, c)), hb(__hadd_rn(__hmul_rn(a, b), c))) }                      \
  { __half t = a * b; __half r = t + c; __half q = t + d;                                          \
    STORE(3, hb(r) | hb(q) << 16, hb(__hfma(a, b, c)) | hb(__hfma(a, b, d)) << 16,                 \
          hb(__hadd_rn(__hmul_rn(a, b), c)) | hb(__hadd_rn(__hmul_rn(a, b), d)) << 16) }           \
  { __half s = __float2half(0.0f), f = s, w = s;                                                   \
    for (int j = 0; j < 4; ++j) {                                                                  \
      __half t = __ushort_as_half(hin[4 * ((i + j) % n)]) * __ushort_as_half(hin[4 * ((i + j) % n) + 1]); \
      s = s + t;                                                                                   \
      f = __hfma(__ushort_as_half(hin[4 * ((i + j) % n)]), __ushort_as_half(hin[4 * ((i + j) % n) + 1]), f); \
      w = __hadd_rn(w, __hmul_rn(__ushort_as_half(hin[4 * ((i + j) % n)]), __ushort_as_half(hin[4 * ((i + j) % n) + 1]))); \
    }                                                                                              \
    STORE(4, hb(s), hb(f), hb(w)) }                                                                \
  { __half s = __float2half(0.0f), f = s, w = s;                                                   \
    for (int j = 0; j < 4; ++j) {                                                                  \
      __half p = __ushort_as_half(hin[4 * ((i + j) % n)]), q = __ushort_as_half(hin[4 * ((i + j) % n) + 1]); \
      s = s + p * q;                                                                               \
      f = __hfma(p, q, f);                                                                         \
      w = __hadd_rn(w, __hmul_rn(p, q));                                                           \
    }                                                                                              \
    STORE(5, hb(s), hb(f), hb(w)) }                                                                \
  { __nv_bfloat16 t = x * y; __nv_bfloat16 r = t + z;                                              \
    STORE(6, bb(r), bb(__hfma(x, y, z)), bb(__hadd_rn(__hmul_rn(x, y), z))) }
#define NAMES "t=a*b; t+c", "t=__hmul(a,b); __hadd(t,c)", "t=a*b; store t; t+c", "t=a*b; t+c and t+d", \
              "dot loop, t=p*q; s=s+t", "dot loop, s=s+p*q", "bf16 t=x*y; t+z"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

typedef unsigned long long u64;

static u64 lcg_state = 0xa4093822299f31d0ull;
static unsigned next32() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<unsigned>(lcg_state >> 32);
}
// Finite values of moderate size, so that products and sums neither
// overflow nor underflow and rounding twice shows.
static unsigned short value(bool bf16) {
  unsigned r = next32();
  if (bf16) return static_cast<unsigned short>(((r >> 31) << 15) | ((120 + (r >> 8) % 14) << 7) | (r & 0x7f));
  return static_cast<unsigned short>(((r >> 31) << 15) | ((8 + (r >> 8) % 14) << 10) | (r & 0x3ff));
}

__device__ unsigned hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__device__ unsigned hb2(__half2 p) { return hb(__low2half(p)) | hb(__high2half(p)) << 16; }

// Per input: each case's result, what one rounding (fma) gives, what two
// roundings (the _rn forms, never fused) give.
#define STORE(k, got, fused, twice)  \
  o[(3 * (k) + 0) * (u64)n + i] = (got);   \
  o[(3 * (k) + 1) * (u64)n + i] = (fused); \
  o[(3 * (k) + 2) * (u64)n + i] = (twice);

__global__ void cases(const unsigned short* hin, const unsigned short* bin, unsigned* o, unsigned* keep, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    __half a = __ushort_as_half(hin[4 * i]), b = __ushort_as_half(hin[4 * i + 1]),
           c = __ushort_as_half(hin[4 * i + 2]), d = __ushort_as_half(hin[4 * i + 3]);
    __nv_bfloat16 x = __ushort_as_bfloat16(bin[4 * i]), y = __ushort_as_bfloat16(bin[4 * i + 1]),
                  z = __ushort_as_bfloat16(bin[4 * i + 2]);
    CASES
  }
}

static const char* names[] = {NAMES};
constexpr int NCASES = sizeof names / sizeof *names;

static u64 fnv(const unsigned* p, int n) {
  u64 h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

int main() {
  const int n = 16384;
  std::vector<unsigned short> h_in(4 * n), b_in(4 * n);
  for (int i = 0; i < 4 * n; ++i) {
    h_in[i] = value(false);
    b_in[i] = value(true);
  }
  unsigned short *d_h, *d_b;
  unsigned *d_out, *d_keep;
  cudaMalloc(&d_h, 2 * 4 * n);
  cudaMalloc(&d_b, 2 * 4 * n);
  cudaMalloc(&d_out, 4 * 3 * (u64)n * NCASES);
  cudaMalloc(&d_keep, 4 * (u64)n);
  cudaMemcpy(d_h, h_in.data(), 2 * 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b_in.data(), 2 * 4 * n, cudaMemcpyHostToDevice);
  cases<<<16, 256>>>(d_h, d_b, d_out, d_keep, n);
  std::vector<unsigned> out(3 * (u64)n * NCASES);
  cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost);
  for (int k = 0; k < NCASES; ++k) {
    const unsigned* got = &out[(3 * k + 0) * (u64)n];
    const unsigned* fused = &out[(3 * k + 1) * (u64)n];
    const unsigned* twice = &out[(3 * k + 2) * (u64)n];
    int nf = 0, nt = 0, differ = 0;
    for (int i = 0; i < n; ++i) {
      nf += got[i] == fused[i];
      nt += got[i] == twice[i];
      differ += fused[i] != twice[i];
    }
    printf("%-34s hash %016llx as-one-rounding %5d as-two-roundings %5d (of %d; the two differ in %d)\n", names[k],
           fnv(got, n), nf, nt, n, differ);
  }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
