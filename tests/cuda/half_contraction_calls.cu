// Half products that reach an addition through the program's own
// __device__ functions: which nvcc (inlining the call) fuses into one fused
// multiply-add. For each form, over 16384 random inputs: a hash of the
// results and how many equal the fused value (one rounding) and the unfused
// one (two roundings).
//   a product variable passed to a function that adds its parameter, also
//   given to a function that converts it to float; a product variable given
//   twice to adding functions; a product written as the argument; a pair
//   product; a function that passes its parameter on to another that adds
//   it; a __noinline__ function that adds its parameter.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

typedef unsigned long long u64;

static u64 state = 0x243f6a8885a308d3ull;
static unsigned next32() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<unsigned>(state >> 32);
}
// Finite values of moderate size: products and sums neither overflow nor
// underflow, so rounding twice shows.
static unsigned short value() {
  unsigned r = next32();
  return static_cast<unsigned short>(((r >> 31) << 15) | ((8 + (r >> 8) % 14) << 10) | (r & 0x3ff));
}

__device__ unsigned hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned hb2(__half2 p) { return hb(__low2half(p)) | hb(__high2half(p)) << 16; }
__device__ __half acc(__half s, __half t) { return s + t; }
__device__ __half2 acc2(__half2 s, __half2 t) { return __hadd2(s, t); }
__device__ __half acc_on(__half s, __half t) { return acc(t, s); }
__device__ float widen(__half h) { return __half2float(h); }
__device__ __noinline__ __half acc_far(__half s, __half t) { return s + t; }

#define STORE(k, got, fused, twice)          \
  o[(3 * (k) + 0) * (u64)n + i] = (got);   \
  o[(3 * (k) + 1) * (u64)n + i] = (fused); \
  o[(3 * (k) + 2) * (u64)n + i] = (twice);

__global__ void cases(const unsigned short* in, unsigned* o, float* f, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const __half a = __ushort_as_half(in[4 * i]), b = __ushort_as_half(in[4 * i + 1]),
                 c = __ushort_as_half(in[4 * i + 2]), d = __ushort_as_half(in[4 * i + 3]);
    const __half fused = __hfma(a, b, c), twice = __hadd_rn(__hmul_rn(a, b), c);
    {
      __half p = a * b;
      __half r = acc(c, p);
      f[i] = widen(p);
      STORE(0, hb(r), hb(fused), hb(twice))
    }
    {
      __half q = __hmul(a, b);
      __half r = acc(q, c);
      __half u = acc(d, q);
      STORE(1, hb(r) | hb(u) << 16, hb(fused) | hb(__hfma(a, b, d)) << 16,
            hb(twice) | hb(__hadd_rn(__hmul_rn(a, b), d)) << 16)
    }
    {
      __half r = acc(a * b, c);
      STORE(2, hb(r), hb(fused), hb(twice))
    }
    {
      const __half2 p = __halves2half2(a, c), q = __halves2half2(b, d), w = __halves2half2(d, a);
      __half2 t = p * q;
      __half2 r = acc2(w, t);
      STORE(3, hb2(r), hb2(__hfma2(p, q, w)), hb2(__hadd2_rn(__hmul2_rn(p, q), w)))
    }
    {
      __half t = a * b;
      __half r = acc_on(t, c);
      STORE(4, hb(r), hb(fused), hb(twice))
    }
    {
      __half t = a * b;
      __half r = acc_far(c, t);
      STORE(5, hb(r), hb(fused), hb(twice))
    }
  }
}

static const char* names[] = {"p=a*b; acc(c,p) and widen(p)", "q=__hmul(a,b); acc(q,c), acc(d,q)",
                              "acc(a*b,c)", "half2 t=p*q; acc2(w,t)", "t=a*b; acc_on(t,c) -> acc",
                              "t=a*b; __noinline__ acc_far(c,t)"};
constexpr int NCASES = sizeof names / sizeof *names;

static u64 fnv(const unsigned* p, int n) {
  u64 h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

int main() {
  const int n = 16384;
  std::vector<unsigned short> in(4 * n);
  for (auto& v : in) v = value();
  unsigned short* d_in;
  unsigned* d_out;
  float* d_f;
  cudaMalloc(&d_in, 2 * 4 * n);
  cudaMalloc(&d_out, 4 * 3 * (u64)n * NCASES);
  cudaMalloc(&d_f, 4 * n);
  cudaMemcpy(d_in, in.data(), 2 * 4 * n, cudaMemcpyHostToDevice);
  cases<<<16, 256>>>(d_in, d_out, d_f, n);
  std::vector<unsigned> out(3 * (u64)n * NCASES);
  std::vector<float> widened(n);
  cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(widened.data(), d_f, 4 * n, cudaMemcpyDeviceToHost);
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
    printf("%-36s hash %016llx as-one-rounding %5d as-two-roundings %5d (of %d; the two differ in %d)\n", names[k],
           fnv(got, n), nf, nt, n, differ);
  }
  printf("widened hash %016llx\n", fnv(reinterpret_cast<const unsigned*>(widened.data()), n));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
