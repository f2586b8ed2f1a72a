// Half-precision arithmetic (<cuda_fp16.h>): add, sub, mul, div (also _sat
// and _rn forms and operators), max/min (and _nan forms), every comparison
// (ordered and unordered, operators), fma rounded once (also _sat and _relu,
// and a*b+c written out), and the __half2 forms on both lanes, over every
// pair of special values (zeros, subnormals, largest, inf, NaN) and 131072
// random and nearby pairs. Prints a hash of each function's results and the
// bit patterns for some special pairs.
#include <cuda_fp16.h>
#define PREFIX "half"
#define T __half
#define T2 __half2
#define AS_USHORT __half_as_ushort
#define FROM_USHORT(x) __ushort_as_half(static_cast<unsigned short>(x))
#define MAKE2 __halves2half2
#define __low2half_t __low2half
#define __high2half_t __high2half
#define MANT_BITS 10
#define EXP_MASK 31
#define SPECIALS {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x3bff, \
                  0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x7fff, 0x4000, 0x3800, \
                  0x5bff, 0x1400, 0x0200, 0x4248}
#define TO_FLOAT_HOST(x) __half2float(__ushort_as_half(x))
#define FROM_FLOAT_HOST(f) __half_as_ushort(__float2half(f))
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef unsigned long long u64;

static u64 fnv(const u64* p, int n) {
  u64 h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) {
    for (int b = 0; b < 8; ++b) {
      h ^= (p[i] >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  return h;
}
// With NUMERICS_DUMP=DIR set, every function's raw results go to DIR/half_arith_NAME.u32.bin
// (or .u64.bin when a value needs 64 bits).
static void dump(const char* name, const u64* p, int n) {
  const char* dir = getenv("NUMERICS_DUMP");
  if (!dir) return;
  bool wide = false;
  for (int i = 0; i < n; ++i) wide |= (p[i] >> 32) != 0;
  char path[512];
  snprintf(path, sizeof path, "%s/" "half_arith_" "%s.u%d.bin", dir, name, wide ? 64 : 32);
  FILE* f = fopen(path, "wb");
  if (!f) return;
  for (int i = 0; i < n; ++i) {
    unsigned lo = static_cast<unsigned>(p[i]);
    if (wide) fwrite(&p[i], 8, 1, f);
    else fwrite(&lo, 4, 1, f);
  }
  fclose(f);
}
static u64 lcg_state = 0x13198a2e03707344ull;
static unsigned next32() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<unsigned>(lcg_state >> 32);
}

__device__ u64 bits(T h) { return AS_USHORT(h); }
__device__ u64 bits2(T2 p) { return bits(__low2half_t(p)) | (bits(__high2half_t(p)) << 16); }

#define BIN_FUNCS(X)                          \
  X(hadd, bits(__hadd(a, b)))                 \
  X(hsub, bits(__hsub(a, b)))                 \
  X(hmul, bits(__hmul(a, b)))                 \
  X(hdiv, bits(__hdiv(a, b)))                 \
  X(hadd_sat, bits(__hadd_sat(a, b)))         \
  X(hsub_sat, bits(__hsub_sat(a, b)))         \
  X(hmul_sat, bits(__hmul_sat(a, b)))         \
  X(hadd_rn, bits(__hadd_rn(a, b)))           \
  X(hsub_rn, bits(__hsub_rn(a, b)))           \
  X(hmul_rn, bits(__hmul_rn(a, b)))           \
  X(hmax, bits(__hmax(a, b)))                 \
  X(hmin, bits(__hmin(a, b)))                 \
  X(hmax_nan, bits(__hmax_nan(a, b)))         \
  X(hmin_nan, bits(__hmin_nan(a, b)))         \
  X(op_add, bits(a + b))                      \
  X(op_sub, bits(a - b))                      \
  X(op_mul, bits(a * b))                      \
  X(op_div, bits(a / b))                      \
  X(op_add_assign, bits(c += b))              \
  X(op_neg, bits(-a))                         \
  X(cmp, (u64)__heq(a, b) | (u64)__hne(a, b) << 1 | (u64)__hlt(a, b) << 2 | (u64)__hle(a, b) << 3 | \
             (u64)__hgt(a, b) << 4 | (u64)__hge(a, b) << 5 | (u64)__hequ(a, b) << 6 |           \
             (u64)__hneu(a, b) << 7 | (u64)__hltu(a, b) << 8 | (u64)__hleu(a, b) << 9 |         \
             (u64)__hgtu(a, b) << 10 | (u64)__hgeu(a, b) << 11 | (u64)(a == b) << 12 |          \
             (u64)(a != b) << 13 | (u64)(a < b) << 14 | (u64)(a <= b) << 15 | (u64)(a > b) << 16 | \
             (u64)(a >= b) << 17)                                                                  \
  X(hadd2, bits2(__hadd2(p, q)))              \
  X(hsub2, bits2(__hsub2(p, q)))              \
  X(hmul2, bits2(__hmul2(p, q)))              \
  X(h2div, bits2(__h2div(p, q)))              \
  X(hadd2_sat, bits2(__hadd2_sat(p, q)))      \
  X(hsub2_sat, bits2(__hsub2_sat(p, q)))      \
  X(hmul2_sat, bits2(__hmul2_sat(p, q)))      \
  X(hmax2, bits2(__hmax2(p, q)))              \
  X(hmin2, bits2(__hmin2(p, q)))              \
  X(hmax2_nan, bits2(__hmax2_nan(p, q)))      \
  X(hmin2_nan, bits2(__hmin2_nan(p, q)))      \
  X(op2_add, bits2(p + q))                    \
  X(op2_mul, bits2(p * q))                    \
  X(op2_div, bits2(p / q))                    \
  X(hneg2, bits2(__hneg2(p)))                 \
  X(habs2, bits2(__habs2(p)))                 \
  X(cmp2, bits2(__heq2(p, q)) | bits2(__hlt2(p, q)) << 32 | (u64)__hbeq2(p, q) << 63 |  \
              (u64)__hblt2(p, q) << 62 | (u64)__hbequ2(p, q) << 61 | (u64)__hbgtu2(p, q) << 60) \
  X(cmp2u, bits2(__hequ2(p, q)) | bits2(__hgeu2(p, q)) << 32)
#define TRI_FUNCS(X)                          \
  X(hfma, bits(__hfma(a, b, c)))              \
  X(hfma_sat, bits(__hfma_sat(a, b, c)))      \
  X(hfma_relu, bits(__hfma_relu(a, b, c)))    \
  X(hfma2, bits2(__hfma2(p, q, r)))           \
  X(hfma2_sat, bits2(__hfma2_sat(p, q, r)))   \
  X(hfma2_relu, bits2(__hfma2_relu(p, q, r))) \
  X(expr_fma, bits(a * b + c))
#define COUNT(name, expr) +1
constexpr int NB = 0 BIN_FUNCS(COUNT), NT = 0 TRI_FUNCS(COUNT);
#define NAME(name, expr) #name,
static const char* b_names[] = {BIN_FUNCS(NAME)};
static const char* t_names[] = {TRI_FUNCS(NAME)};
#define STORE(name, expr) o[(k++) * (u64)n + i] = (expr);

__global__ void binary(const unsigned* in, u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    T a = FROM_USHORT(in[i] & 0xffff), b = FROM_USHORT(in[i] >> 16);
    T c = a;
    T2 p = MAKE2(a, b), q = MAKE2(b, a);
    int k = 0;
    BIN_FUNCS(STORE)
  }
}
__global__ void ternary(const u64* in, u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    T a = FROM_USHORT(in[i] & 0xffff), b = FROM_USHORT((in[i] >> 16) & 0xffff),
      c = FROM_USHORT((in[i] >> 32) & 0xffff);
    T2 p = MAKE2(a, c), q = MAKE2(b, b), r = MAKE2(c, a);
    int k = 0;
    TRI_FUNCS(STORE)
  }
}

static const unsigned short specials[] = SPECIALS;
static const int NS = sizeof specials / sizeof *specials;
static unsigned short random_value() {
  unsigned r = next32();
  if (r % 8 == 0) return specials[(r >> 3) % NS];
  return static_cast<unsigned short>(r >> 16);
}
static unsigned short near(unsigned short x) {
  // Same sign or opposite, exponent within 2, random low bits: cancellation
  // and carries.
  unsigned r = next32();
  int e = (x >> MANT_BITS) & EXP_MASK;
  e += static_cast<int>(r % 5) - 2;
  if (e < 0) e = 0;
  if (e > EXP_MASK) e = EXP_MASK;
  unsigned m = (r >> 8) & ((1u << MANT_BITS) - 1);
  return static_cast<unsigned short>(((r >> 31) << 15) | (e << MANT_BITS) | m);
}

int main() {
  // Pairs: every special with every special, then random and nearby pairs.
  std::vector<unsigned> pairs;
  for (int i = 0; i < NS; ++i)
    for (int j = 0; j < NS; ++j) pairs.push_back(specials[i] | (unsigned)specials[j] << 16);
  while (pairs.size() < 131072) {
    unsigned short a = random_value();
    unsigned short b = (next32() & 1) ? near(a) : random_value();
    pairs.push_back(a | (unsigned)b << 16);
  }
  // Triples: random, and c near -a*b (computed on the host in float).
  std::vector<u64> triples;
  for (int i = 0; i < NS; ++i)
    for (int j = 0; j < NS; ++j) triples.push_back(specials[i] | (u64)specials[j] << 16 | (u64)specials[(i + j) % NS] << 32);
  while (triples.size() < 65536) {
    unsigned short a = random_value(), b = random_value();
    unsigned short c = random_value();
    unsigned sel = next32() % 4;
    if (sel == 0) c = near(a);
    if (sel == 1) {
      float fa = TO_FLOAT_HOST(a), fb = TO_FLOAT_HOST(b);
      c = static_cast<unsigned short>(FROM_FLOAT_HOST(-fa * fb) ^ (next32() % 4));
    }
    triples.push_back(a | (u64)b << 16 | (u64)c << 32);
  }
  int n = pairs.size();
  {
    std::vector<u64> in(pairs.begin(), pairs.end());
    dump("in_pairs", in.data(), n);
    dump("in_triples", triples.data(), triples.size());
  }
  unsigned* d_pairs;
  u64* d_out;
  cudaMalloc(&d_pairs, 4 * n);
  cudaMalloc(&d_out, 8 * (u64)n * NB);
  cudaMemcpy(d_pairs, pairs.data(), 4 * n, cudaMemcpyHostToDevice);
  binary<<<16, 256>>>(d_pairs, d_out, n);
  std::vector<u64> out((u64)n * NB);
  cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
  for (int f = 0; f < NB; ++f) {
    printf("%s hash %016llx\n", b_names[f], fnv(&out[(u64)f * n], n));
    dump(b_names[f], &out[(u64)f * n], n);
  }
  // Edge pairs, all functions: a few specials against each other.
  for (int i = 0; i < NS * NS; i += 7) {
    printf("%04x %04x:", pairs[i] & 0xffff, pairs[i] >> 16);
    for (int f = 0; f < NB; ++f) printf(" %llx", out[(u64)f * n + i]);
    printf("\n");
  }
  int nt = triples.size();
  u64* d_tri;
  cudaMalloc(&d_tri, 8 * nt);
  cudaMemcpy(d_tri, triples.data(), 8 * nt, cudaMemcpyHostToDevice);
  ternary<<<16, 256>>>(d_tri, d_out, nt);
  std::vector<u64> tout((u64)nt * NT);
  cudaMemcpy(tout.data(), d_out, tout.size() * 8, cudaMemcpyDeviceToHost);
  for (int f = 0; f < NT; ++f) {
    printf("%s hash %016llx\n", t_names[f], fnv(&tout[(u64)f * nt], nt));
    dump(t_names[f], &tout[(u64)f * nt], nt);
  }
  for (int i = 0; i < NS * NS; i += 11) {
    printf("%04llx %04llx %04llx:", triples[i] & 0xffff, (triples[i] >> 16) & 0xffff, triples[i] >> 32);
    for (int f = 0; f < NT; ++f) printf(" %llx", tout[(u64)f * nt + i]);
    printf("\n");
  }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
