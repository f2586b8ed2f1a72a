// Half-precision math functions of <cuda_fp16.h> (hsqrt, hrsqrt, hrcp, hexp,
// hexp2, hexp10, hlog, hlog2, hlog10, hsin, hcos, htrunc, hceil, hfloor,
// hrint, __hneg, __habs, __hisnan, __hisinf) over all 65536 inputs, and their
// __half2 forms. Prints a hash of each function, how often its result is not
// the exact value rounded once (a double-precision reference) and the first
// such inputs: those show where the GPU's approximations round differently.
#include <cuda_fp16.h>
#define PREFIX "half"
#define T __half
#define T2 __half2
#define AS_USHORT __half_as_ushort
#define FROM_USHORT(x) __ushort_as_half(static_cast<unsigned short>(x))
#define FROM_DOUBLE __double2half
#define TO_FLOAT __half2float
#define MAKE2 __halves2half2
#define __low2half_t __low2half
#define __high2half_t __high2half
#define EXP_FIELD 0x7c00ull
#define MANT_FIELD 0x03ffull
#define EDGE_INPUTS 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4100, 0xc100, 0x4248, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x4a00, 0x5640, 0x0400, 0x03ff
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
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
// With NUMERICS_DUMP=DIR set, every function's raw results go to DIR/half_math_NAME.u32.bin
// (or .u64.bin when a value needs 64 bits).
static void dump(const char* name, const u64* p, int n) {
  const char* dir = getenv("NUMERICS_DUMP");
  if (!dir) return;
  bool wide = false;
  for (int i = 0; i < n; ++i) wide |= (p[i] >> 32) != 0;
  char path[512];
  snprintf(path, sizeof path, "%s/" "half_math_" "%s.u%d.bin", dir, name, wide ? 64 : 32);
  FILE* f = fopen(path, "wb");
  if (!f) return;
  for (int i = 0; i < n; ++i) {
    unsigned lo = static_cast<unsigned>(p[i]);
    if (wide) fwrite(&p[i], 8, 1, f);
    else fwrite(&lo, 4, 1, f);
  }
  fclose(f);
}

__device__ u64 bits(T h) { return AS_USHORT(h); }
__device__ u64 bits2(T2 p) { return bits(__low2half_t(p)) | (bits(__high2half_t(p)) << 16); }

// name, the function on one value, its __half2 form, the double-precision
// reference (rounded to the type once).
#define MATH_FUNCS(X)                              \
  X(hsqrt, hsqrt(h), h2sqrt(p), sqrt(x))           \
  X(hrsqrt, hrsqrt(h), h2rsqrt(p), 1.0 / sqrt(x))  \
  X(hrcp, hrcp(h), h2rcp(p), 1.0 / x)              \
  X(hexp, hexp(h), h2exp(p), exp(x))               \
  X(hexp2, hexp2(h), h2exp2(p), exp2(x))           \
  X(hexp10, hexp10(h), h2exp10(p), exp10(x))       \
  X(hlog, hlog(h), h2log(p), log(x))               \
  X(hlog2, hlog2(h), h2log2(p), log2(x))           \
  X(hlog10, hlog10(h), h2log10(p), log10(x))       \
  X(hsin, hsin(h), h2sin(p), sin(x))               \
  X(hcos, hcos(h), h2cos(p), cos(x))               \
  X(htrunc, htrunc(h), h2trunc(p), trunc(x))       \
  X(hceil, hceil(h), h2ceil(p), ceil(x))           \
  X(hfloor, hfloor(h), h2floor(p), floor(x))       \
  X(hrint, hrint(h), h2rint(p), rint(x))           \
  X(hneg, __hneg(h), __hneg2(p), -x)               \
  X(habs, __habs(h), __habs2(p), fabs(x))
#define COUNT(name, f1, f2, ref) +1
constexpr int NM = 0 MATH_FUNCS(COUNT);
#define NAME(name, f1, f2, ref) #name,
static const char* names[] = {MATH_FUNCS(NAME)};
// Per input: the function, its pair form (lanes h and -h), the reference.
#define STORE(name, f1, f2, ref)                                          \
  o[(k * 3 + 0) * (u64)n + i] = bits(f1);                                 \
  o[(k * 3 + 1) * (u64)n + i] = bits2(f2);                                \
  o[(k * 3 + 2) * (u64)n + i] = bits(FROM_DOUBLE(ref));                   \
  ++k;

__global__ void unary(u64* o, u64* flags, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    T h = FROM_USHORT(i);
    T2 p = MAKE2(h, FROM_USHORT(i ^ 0x8000));
    double x = TO_FLOAT(h);
    int k = 0;
    MATH_FUNCS(STORE)
    flags[i] = (u64)__hisnan(h) | (u64)__hisinf(h) << 1 | bits2(__hisnan2(p)) << 8;
  }
}

static bool is_nan(u64 v) { return (v & EXP_FIELD) == EXP_FIELD && (v & MANT_FIELD) != 0; }

int main() {
  int n = 65536;
  u64 *d_out, *d_flags;
  cudaMalloc(&d_out, 8 * (u64)n * NM * 3);
  cudaMalloc(&d_flags, 8 * (u64)n);
  unary<<<16, 256>>>(d_out, d_flags, n);
  std::vector<u64> out((u64)n * NM * 3), flags(n);
  cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(flags.data(), d_flags, flags.size() * 8, cudaMemcpyDeviceToHost);
  for (int f = 0; f < NM; ++f) {
    const u64* one = &out[(u64)(f * 3) * n];
    const u64* two = &out[(u64)(f * 3 + 1) * n];
    const u64* ref = &out[(u64)(f * 3 + 2) * n];
    dump(names[f], one, n);
    int lanes = 0, off = 0, nans = 0;
    for (int i = 0; i < n; ++i) {
      if ((two[i] & 0xffff) != one[i] || (two[i] >> 16) != one[i ^ 0x8000]) ++lanes;
      if (is_nan(one[i]) && is_nan(ref[i])) {
        if (one[i] != ref[i]) ++nans;
      } else if (one[i] != ref[i]) {
        ++off;
      }
    }
    // (NaN results are compared as NaN: the reference's NaN bits come from
    // the double library, not from the function.)
    (void)nans;
    printf("%s hash %016llx pair-lanes-differ %d differs-from-rounded-double %d\n", names[f], fnv(one, n), lanes,
           off);
    int shown = 0;
    for (int i = 0; i < n && shown < 64; ++i) {
      if (!(is_nan(one[i]) && is_nan(ref[i])) && one[i] != ref[i]) {
        printf("  %s(%04x) = %04llx, rounded double %04llx\n", names[f], i, one[i], ref[i]);
        ++shown;
      }
    }
  }
  printf("hisnan/hisinf hash %016llx\n", fnv(flags.data(), n));
  for (int i : {0x0000, 0x8000, 0x0001, EDGE_INPUTS}) {
    printf("%04x:", i);
    for (int f = 0; f < NM; ++f) printf(" %llx", out[(u64)(f * 3) * n + i]);
    printf(" flags %llx\n", flags[i]);
  }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
