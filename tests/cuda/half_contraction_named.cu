// Half and bfloat16 products kept in a named variable, then added: which
// forms nvcc (ptxas) still fuses into one fused multiply-add. For each form,
// over 16384 random inputs: a hash of the results and how many equal the
// fused value (one rounding) and the unfused one (two roundings, from the
// _rn forms, which are never fused).
//   s += t; c - t; t - c; half2 and bfloat162 products (__hmul2, *) added;
//   t feeding both __hadd_rn (never fused) and a plain addition;
//   t reassigned on one path before the addition;
//   t passed to an inlined __device__ function that adds;
//   t copied into another variable that is added.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

typedef unsigned long long u64;

static u64 state = 0x9e3779b97f4a7c15ull;
static unsigned next32() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<unsigned>(state >> 32);
}
// Finite values of moderate size: products and sums neither overflow nor
// underflow, so rounding twice shows.
static unsigned short value(bool bf16) {
  unsigned r = next32();
  if (bf16) return static_cast<unsigned short>(((r >> 31) << 15) | ((120 + (r >> 8) % 14) << 7) | (r & 0x7f));
  return static_cast<unsigned short>(((r >> 31) << 15) | ((8 + (r >> 8) % 14) << 10) | (r & 0x3ff));
}

__device__ unsigned hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__device__ unsigned hb2(__half2 p) { return hb(__low2half(p)) | hb(__high2half(p)) << 16; }
__device__ unsigned bb2(__nv_bfloat162 p) { return bb(__low2bfloat16(p)) | bb(__high2bfloat16(p)) << 16; }
__device__ __forceinline__ __half add_inline(__half x, __half y) { return x + y; }

#define STORE(k, got, fused, twice)          \
  o[(3 * (k) + 0) * (u64)n + i] = (got);   \
  o[(3 * (k) + 1) * (u64)n + i] = (fused); \
  o[(3 * (k) + 2) * (u64)n + i] = (twice);

__global__ void cases(const unsigned short* hin, const unsigned short* bin, unsigned* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const __half a = __ushort_as_half(hin[4 * i]), b = __ushort_as_half(hin[4 * i + 1]),
                 c = __ushort_as_half(hin[4 * i + 2]), d = __ushort_as_half(hin[4 * i + 3]);
    const __nv_bfloat16 x = __ushort_as_bfloat16(bin[4 * i]), y = __ushort_as_bfloat16(bin[4 * i + 1]),
                        z = __ushort_as_bfloat16(bin[4 * i + 2]), v = __ushort_as_bfloat16(bin[4 * i + 3]);
    const __half fused = __hfma(a, b, c), twice = __hadd_rn(__hmul_rn(a, b), c);
    {
      __half s = c;
      __half t = a * b;
      s += t;
      STORE(0, hb(s), hb(fused), hb(twice))
    }
    {
      __half t = a * b;
      __half r = c - t;
      STORE(1, hb(r), hb(__hfma(__hneg(a), b, c)), hb(__hsub_rn(c, __hmul_rn(a, b))))
    }
    {
      __half t = a * b;
      __half r = t - c;
      STORE(2, hb(r), hb(__hfma(a, b, __hneg(c))), hb(__hsub_rn(__hmul_rn(a, b), c)))
    }
    {
      const __half2 p = __halves2half2(a, c), q = __halves2half2(b, d), w = __halves2half2(c, a);
      __half2 t = __hmul2(p, q);
      __half2 r = __hadd2(t, w);
      STORE(3, hb2(r), hb2(__hfma2(p, q, w)), hb2(__hadd2_rn(__hmul2_rn(p, q), w)))
    }
    {
      const __half2 p = __halves2half2(a, c), q = __halves2half2(b, d), w = __halves2half2(d, b);
      __half2 t = p * q;
      __half2 r = t + w;
      STORE(4, hb2(r), hb2(__hfma2(p, q, w)), hb2(__hadd2_rn(__hmul2_rn(p, q), w)))
    }
    {
      const __nv_bfloat162 p = __halves2bfloat162(x, z), q = __halves2bfloat162(y, v),
                           w = __halves2bfloat162(z, x);
      __nv_bfloat162 t = __hmul2(p, q);
      __nv_bfloat162 r = t + w;
      STORE(5, bb2(r), bb2(__hfma2(p, q, w)), bb2(__hadd2_rn(__hmul2_rn(p, q), w)))
    }
    {
      __half t = a * b;
      __half r = __hadd_rn(t, d);
      __half u = t + c;
      o[18 * (u64)n + i] = hb(r);
      STORE(7, hb(u), hb(fused), hb(twice))
    }
    {
      __half t = a * b;
      if (hb(d) & 1) t = d;
      __half r = t + c;
      const bool odd = hb(d) & 1;
      STORE(8, hb(r), odd ? hb(__hadd_rn(d, c)) : hb(fused), odd ? hb(__hadd_rn(d, c)) : hb(twice))
    }
    {
      __half t = a * b;
      __half r = add_inline(t, c);
      STORE(9, hb(r), hb(fused), hb(twice))
    }
    {
      __half t = a * b;
      __half u = t;
      __half r = u + c;
      STORE(10, hb(r), hb(fused), hb(twice))
    }
  }
}

static const char* names[] = {"t=a*b; s+=t",        "t=a*b; c-t",           "t=a*b; t-c",
                              "half2 t=__hmul2(p,q); __hadd2(t,w)", "half2 t=p*q; t+w",
                              "bf162 t=__hmul2(p,q); t+w", "(the __hadd_rn of case 7)",
                              "t=a*b; __hadd_rn(t,d) and t+c", "t=a*b; t=d on odd d; t+c",
                              "t=a*b; add_inline(t,c)", "t=a*b; u=t; u+c"};
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
  unsigned* d_out;
  cudaMalloc(&d_h, 2 * 4 * n);
  cudaMalloc(&d_b, 2 * 4 * n);
  cudaMalloc(&d_out, 4 * 3 * (u64)n * NCASES);
  cudaMemset(d_out, 0, 4 * 3 * (u64)n * NCASES);
  cudaMemcpy(d_h, h_in.data(), 2 * 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b_in.data(), 2 * 4 * n, cudaMemcpyHostToDevice);
  cases<<<16, 256>>>(d_h, d_b, d_out, n);
  std::vector<unsigned> out(3 * (u64)n * NCASES);
  cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost);
  for (int k = 0; k < NCASES; ++k) {
    const unsigned* got = &out[(3 * k + 0) * (u64)n];
    if (k == 6) {  // the __hadd_rn results of case 7: a hash only
      printf("%-36s hash %016llx\n", names[k], fnv(got, n));
      continue;
    }
    const unsigned* fused = &out[(3 * k + 1) * (u64)n];
    const unsigned* twice = &out[(3 * k + 2) * (u64)n];
    int nf = 0, nt = 0, differ = 0;
    for (int i = 0; i < n; ++i) {
      nf += got[i] == fused[i];
      nt += got[i] == twice[i];
      differ += fused[i] != twice[i];
    }
    printf("%-36s hash %016llx as-one-rounding %5d as-two-roundings %5d (of %d; the two differ in %d)\n", names[k],
           fnv(got, n), nf, nt, n, differ);
  }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
