// sweep.cu: measures the device math library against the emulator's, on the GPU
// machine (nvcc, an H200, many cores). Not a probe the test suite runs: a
// measurement whose output (src/emulate/math_h200.txt, where the tool reads it) says, for each single-precision
// function, on how many of all 2^32 inputs the H200's result differs from the
// emulator's host implementation (the expression `cuda_runtime.h` of the shim
// uses for it, mostly glibc's), and for the two-argument and double functions the
// same over a random sample. The emulator's warnings about math functions that are
// not reproduced bit for bit (src/emulate/math.rs) are made from that output.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 -o sweep tests/cuda/math/sweep.cu tests/cuda/math/seeds.cu
//   ./sweep [FILTER]
//
// Columns: value = both finite or infinite and different bits; nan-sign = both NaN,
// different sign (printf shows "nan" and "-nan"); nan-only = one NaN, the other not;
// max-ulp = the largest distance between differing finite results; first = the first
// input (bits) that differs, with both results; glibc-hash = FNV-1a over the host
// results of every input, so that another machine's C library can be compared
// without the GPU (`sweep --host-hash NAME`).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                               \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double from_bits64(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

// The shim's own math (CUDA's functions step for step, cuda_emu_math.h), the same
// code the emulator compiles.
#include "../../../src/emulate/shim/cuda_emu_math.h"

// cuda_log's hardware reciprocal seed (and the float reciprocal and reciprocal
// square root tables of tanf, atanf, powf, asinf, acosf, rsqrtf), measured on the
// GPU at start-up by seeds.cu
// (linked in on the GPU machine; its inline PTX would stop the emulator's build) for
// the high words log's reduction gives; tests/cuda/fitting/rcp64h.cu measures the
// table the emulator ships, and its hash. Under emulation (--host-hash), the
// emulator's runtime has its own, read from that table.
#ifndef CUDA_EMU
void measure_reciprocal_seeds();
#endif

__device__ float sincosf_sine(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return s;
}
__device__ float sincosf_cosine(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return c;
}
static float host_sincosf(float x, bool cosine) {
  float s, c;
  cuda_emu::math::cuda_sincosf(x, &s, &c);
  return cosine ? c : s;
}
__device__ double sincospi_sine(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return s;
}
__device__ double sincospi_cosine(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return c;
}
static double host_sincospi(double x, bool cosine) {
  double s, c;
  cuda_emu::math::cuda_sincospi(x, &s, &c);
  return cosine ? c : s;
}

// ---- the functions: device side and the emulator's host side ----------------------
// The host expressions are those of src/emulate/shim/cuda_runtime.h.
#define UNARY_F(X)                                              \
  X(expf, expf(x), expf(x))                                     \
  X(expf_device, expf(x), cuda_emu::math::cuda_expf(x))        \
  X(exp2f, exp2f(x), exp2f(x))                                  \
  X(exp2f_device, exp2f(x), cuda_emu::math::cuda_exp2f(x))     \
  X(exp10f, exp10f(x), exp10f(x))                               \
  X(exp10f_device, exp10f(x), cuda_emu::math::cuda_exp10f(x))  \
  X(expm1f, expm1f(x), expm1f(x))                               \
  X(expm1f_device, expm1f(x), cuda_emu::math::cuda_expm1f(x))  \
  X(logf, logf(x), logf(x))                                     \
  X(logf_device, logf(x), cuda_emu::math::cuda_logf(x))        \
  X(log2f, log2f(x), log2f(x))                                  \
  X(log2f_device, log2f(x), cuda_emu::math::cuda_log2f(x))    \
  X(log10f, log10f(x), log10f(x))                               \
  X(log10f_device, log10f(x), cuda_emu::math::cuda_log10f(x)) \
  X(log1pf, log1pf(x), log1pf(x))                               \
  X(log1pf_device, log1pf(x), cuda_emu::math::cuda_log1pf(x)) \
  X(sinf, sinf(x), sinf(x))                                     \
  X(sinf_device, sinf(x), cuda_emu::math::cuda_sinf(x))       \
  X(cosf, cosf(x), cosf(x))                                     \
  X(cosf_device, cosf(x), cuda_emu::math::cuda_cosf(x))       \
  X(sincosf_device, sincosf_sine(x), host_sincosf(x, false))   \
  X(sincosf_device_cos, sincosf_cosine(x), host_sincosf(x, true)) \
  X(tanf, tanf(x), tanf(x))                                     \
  X(tanf_device, tanf(x), cuda_emu::math::cuda_tanf(x))       \
  X(asinf, asinf(x), asinf(x))                                  \
  X(asinf_device, asinf(x), cuda_emu::math::cuda_asinf(x))    \
  X(acosf, acosf(x), acosf(x))                                  \
  X(acosf_device, acosf(x), cuda_emu::math::cuda_acosf(x))    \
  X(atanf, atanf(x), atanf(x))                                  \
  X(atanf_device, atanf(x), cuda_emu::math::cuda_atanf(x))    \
  X(sinhf, sinhf(x), sinhf(x))                                  \
  X(sinhf_device, sinhf(x), cuda_emu::math::cuda_sinhf(x))     \
  X(coshf, coshf(x), coshf(x))                                  \
  X(coshf_device, coshf(x), cuda_emu::math::cuda_coshf(x))     \
  X(tanhf, tanhf(x), tanhf(x))                                  \
  X(tanhf_device, tanhf(x), cuda_emu::math::cuda_tanhf(x))     \
  X(asinhf, asinhf(x), asinhf(x))                               \
  X(asinhf_device, asinhf(x), cuda_emu::math::cuda_asinhf(x))  \
  X(acoshf, acoshf(x), acoshf(x))                               \
  X(acoshf_device, acoshf(x), cuda_emu::math::cuda_acoshf(x))  \
  X(atanhf, atanhf(x), atanhf(x))                               \
  X(atanhf_device, atanhf(x), cuda_emu::math::cuda_atanhf(x))  \
  X(sqrtf, sqrtf(x), sqrtf(x))                                  \
  X(cbrtf, cbrtf(x), cbrtf(x))                                  \
  X(rsqrtf, rsqrtf(x), 1.0f / sqrtf(x))                         \
  X(rsqrtf_device, rsqrtf(x), cuda_emu::math::cuda_rsqrtf(x)) \
  X(cbrtf_device, cbrtf(x), cuda_emu::math::cuda_cbrtf(x))     \
  X(rcbrtf, rcbrtf(x), 1.0f / cbrtf(x))                         \
  X(rcbrtf_device, rcbrtf(x), cuda_emu::math::cuda_rcbrtf(x))  \
  X(erff, erff(x), erff(x))                                     \
  X(erff_device, erff(x), cuda_emu::math::cuda_erff(x))        \
  X(erfcf, erfcf(x), erfcf(x))                                  \
  X(erfcf_device, erfcf(x), cuda_emu::math::cuda_erfcf(x))     \
  X(lgammaf, lgammaf(x), lgammaf(x))                            \
  X(tgammaf, tgammaf(x), tgammaf(x))                            \
  X(sinpif, sinpif(x), cuda_emu::math::cuda_sinpif(x))          \
  X(cospif, cospif(x), cuda_emu::math::cuda_cospif(x))          \
  X(normcdff, normcdff(x), 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2))) \
  X(normcdff_device, normcdff(x), cuda_emu::math::cuda_normcdff(x)) \
  X(erfinvf_device, erfinvf(x), cuda_emu::math::cuda_erfinvf(x)) \
  X(erfcinvf_device, erfcinvf(x), cuda_emu::math::cuda_erfcinvf(x)) \
  X(normcdfinvf_device, normcdfinvf(x), cuda_emu::math::cuda_normcdfinvf(x)) \
  X(floorf, floorf(x), floorf(x))                               \
  X(roundf, roundf(x), roundf(x))                               \
  X(rintf, rintf(x), rintf(x))                                  \
  X(logbf, logbf(x), logbf(x))                                  \
  X(logbf_device, logbf(x), cuda_emu::math::cuda_logbf(x))     \
  X(__expf, __expf(x), expf(x))                                 \
  X(__exp10f, __exp10f(x), exp10f(x))                           \
  X(__expf_device, __expf(x), cuda_emu::math::cuda_fast_expf(x)) \
  X(__exp10f_device, __exp10f(x), cuda_emu::math::cuda_fast_exp10f(x)) \
  X(__logf, __logf(x), logf(x))                                 \
  X(__log2f, __log2f(x), log2f(x))                              \
  X(__log10f, __log10f(x), log10f(x))                           \
  X(__logf_device, __logf(x), cuda_emu::math::cuda_fast_logf(x)) \
  X(__log2f_device, __log2f(x), cuda_emu::math::cuda_fast_log2f(x)) \
  X(__log10f_device, __log10f(x), cuda_emu::math::cuda_fast_log10f(x)) \
  X(__sinf, __sinf(x), sinf(x))                                 \
  X(__cosf, __cosf(x), cosf(x))                                 \
  X(__tanf, __tanf(x), tanf(x))                                 \
  X(__frsqrt_rn, __frsqrt_rn(x), (float)(1.0L / sqrtl(x)))     \
  X(__fsqrt_rn, __fsqrt_rn(x), sqrtf(x))                        \
  X(__frcp_rn, __frcp_rn(x), 1.0f / x)

#define BINARY_F(X)                                     \
  X(powf, powf(x, y), powf(x, y))                       \
  X(powf_device, powf(x, y), cuda_emu::math::cuda_powf(x, y)) \
  X(atan2f, atan2f(x, y), atan2f(x, y))                 \
  X(atan2f_device, atan2f(x, y), cuda_emu::math::cuda_atan2f(x, y)) \
  X(hypotf, hypotf(x, y), hypotf(x, y))                 \
  X(hypotf_device, hypotf(x, y), cuda_emu::math::cuda_hypotf(x, y)) \
  X(fmodf, fmodf(x, y), fmodf(x, y))                    \
  X(remainderf, remainderf(x, y), remainderf(x, y))     \
  X(fdimf, fdimf(x, y), fdimf(x, y))                    \
  X(divide, x / y, x / y)                               \
  X(fdividef, fdividef(x, y), x / y)                    \
  X(__fdividef, __fdividef(x, y), x / y)                \
  X(__powf, __powf(x, y), powf(x, y))                   \
  X(__powf_device, __powf(x, y), cuda_emu::math::cuda_fast_powf(x, y))

#define UNARY_D(X)                         \
  X(exp, exp(x), exp(x))                   \
  X(exp_device, exp(x), cuda_emu::math::cuda_exp(x)) \
  X(exp2, exp2(x), exp2(x))                \
  X(expm1, expm1(x), expm1(x))             \
  X(log, log(x), log(x))                   \
  X(log_device, log(x), cuda_emu::math::cuda_log(x)) \
  X(log2, log2(x), log2(x))                \
  X(log10, log10(x), log10(x))             \
  X(log1p, log1p(x), log1p(x))             \
  X(sin, sin(x), sin(x))                   \
  X(cos, cos(x), cos(x))                   \
  X(tan, tan(x), tan(x))                   \
  X(asin, asin(x), asin(x))                \
  X(atan, atan(x), atan(x))                \
  X(sinh, sinh(x), sinh(x))                \
  X(tanh, tanh(x), tanh(x))                \
  X(sqrt, sqrt(x), sqrt(x))                \
  X(cbrt, cbrt(x), cbrt(x))                \
  X(rsqrt, rsqrt(x), 1.0 / sqrt(x))        \
  X(erf, erf(x), erf(x))                   \
  X(erfc, erfc(x), erfc(x))                \
  X(sinpi, sinpi(x), host_sincospi(x, false)) \
  X(cospi, cospi(x), host_sincospi(x, true))   \
  X(sincospi_sin, sincospi_sine(x), host_sincospi(x, false)) \
  X(sincospi_cos, sincospi_cosine(x), host_sincospi(x, true)) \
  X(normcdf, normcdf(x), 0.5 * erfc(-x * M_SQRT1_2))

#define BINARY_D(X)                      \
  X(pow, pow(x, y), pow(x, y))           \
  X(atan2, atan2(x, y), atan2(x, y))     \
  X(hypot, hypot(x, y), hypot(x, y))     \
  X(fmod, fmod(x, y), fmod(x, y))

#define KERNEL_UF(name, dev, host)                                               \
  __global__ void k_##name(uint32_t base, float* out, size_t n) {               \
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;                    \
    if (i < n) {                                                                 \
      float x = __uint_as_float(base + (uint32_t)i);                             \
      out[i] = dev;                                                              \
    }                                                                            \
  }                                                                              \
  static float h_##name(float x) { return host; }
UNARY_F(KERNEL_UF)

#define KERNEL_BF(name, dev, host)                                                     \
  __global__ void k_##name(const float* xs, const float* ys, float* out, size_t n) {  \
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;                          \
    if (i < n) {                                                                       \
      float x = xs[i], y = ys[i];                                                      \
      out[i] = dev;                                                                    \
    }                                                                                  \
  }                                                                                    \
  static float h_##name(float x, float y) { return host; }
BINARY_F(KERNEL_BF)

#define KERNEL_UD(name, dev, host)                                          \
  __global__ void k_##name(const double* xs, double* out, size_t n) {      \
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;               \
    if (i < n) {                                                            \
      double x = xs[i];                                                     \
      out[i] = dev;                                                         \
    }                                                                       \
  }                                                                         \
  static double h_##name(double x) { return host; }
UNARY_D(KERNEL_UD)

#define KERNEL_BD(name, dev, host)                                                        \
  __global__ void k_##name(const double* xs, const double* ys, double* out, size_t n) {  \
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;                             \
    if (i < n) {                                                                          \
      double x = xs[i], y = ys[i];                                                        \
      out[i] = dev;                                                                       \
    }                                                                                     \
  }                                                                                       \
  static double h_##name(double x, double y) { return host; }
BINARY_D(KERNEL_BD)

// ---- counting -----------------------------------------------------------------------
struct Tally {
  uint64_t value = 0, nan_sign = 0, nan_only = 0, max_ulp = 0;
  bool have_first = false;
  uint64_t first_in = 0, first_in2 = 0, first_gpu = 0, first_host = 0;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over host results, in input order

  void merge(const Tally& t) {
    value += t.value;
    nan_sign += t.nan_sign;
    nan_only += t.nan_only;
    if (t.max_ulp > max_ulp) max_ulp = t.max_ulp;
    if (!have_first && t.have_first) {
      have_first = true;
      first_in = t.first_in;
      first_in2 = t.first_in2;
      first_gpu = t.first_gpu;
      first_host = t.first_host;
    }
  }
};

// Distance in units in the last place between two finite values of one sign
// convention (ordered integer representation).
static uint64_t ulp_distance(uint64_t a, uint64_t b, int width) {
  const uint64_t sign = 1ull << (width - 1);
  auto ordered = [&](uint64_t u) -> int64_t {
    return (u & sign) ? -(int64_t)(u & ~sign) : (int64_t)u;
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? (uint64_t)-d : (uint64_t)d;
}

template <class T>
static void compare(Tally& t, uint64_t in, uint64_t in2, T gpu, T host) {
  uint64_t g, h;
  int width = sizeof(T) * 8;
  if (sizeof(T) == 4) {
    g = bits((float)gpu);
    h = bits((float)host);
  } else {
    g = bits((double)gpu);
    h = bits((double)host);
  }
  if (g == h) return;
  bool gn = std::isnan(gpu), hn = std::isnan(host);
  if (gn && hn) {
    if ((g >> (width - 1)) != (h >> (width - 1))) ++t.nan_sign;
    return;  // payloads alone: printf shows the same
  }
  if (gn != hn) {
    ++t.nan_only;
  } else {
    ++t.value;
    uint64_t d = ulp_distance(g, h, width);
    if (d > t.max_ulp) t.max_ulp = d;
  }
  if (!t.have_first) {
    t.have_first = true;
    t.first_in = in;
    t.first_in2 = in2;
    t.first_gpu = g;
    t.first_host = h;
  }
}

static unsigned threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 4;
}

template <class Work>
static Tally parallel(size_t n, Work work) {
  unsigned k = threads();
  std::vector<Tally> parts(k);
  std::vector<std::thread> pool;
  for (unsigned p = 0; p < k; ++p)
    pool.emplace_back([&, p] {
      size_t lo = n * p / k, hi = n * (p + 1) / k;
      work(parts[p], lo, hi);
    });
  for (auto& th : pool) th.join();
  Tally all;
  for (auto& part : parts) all.merge(part);
  return all;
}

static void print(const char* name, const char* domain, const Tally& t, int width) {
  printf("%-12s %-22s value %10llu  nan-sign %10llu  nan-only %10llu  max-ulp %llu", name, domain,
         (unsigned long long)t.value, (unsigned long long)t.nan_sign,
         (unsigned long long)t.nan_only, (unsigned long long)t.max_ulp);
  if (t.have_first) {
    if (width == 32)
      printf("  first %08llx", (unsigned long long)t.first_in);
    else
      printf("  first %016llx", (unsigned long long)t.first_in);
    if (t.first_in2 != ~0ull) printf(",%0*llx", width / 4, (unsigned long long)t.first_in2);
    printf(" gpu %0*llx host %0*llx", width / 4, (unsigned long long)t.first_gpu, width / 4,
           (unsigned long long)t.first_host);
  }
  printf("\n");
  fflush(stdout);
}

// FILTER: names separated by commas; a name is selected if it contains one of them.
static bool selected(const char* name, const char* filter) {
  if (filter == nullptr) return true;
  std::string list(filter);
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string one = list.substr(start, end - start);
    if (!one.empty() && strstr(name, one.c_str()) != nullptr) return true;
    start = end + 1;
  }
  return false;
}

// Every float input, in chunks.
static const size_t kChunk = size_t(1) << 28;

typedef void (*UnaryKernelF)(uint32_t, float*, size_t);
static void sweep_unary_f(const char* name, UnaryKernelF kernel, float (*host)(float), float* d_out,
                          float* h_out) {
  Tally all;
  uint64_t hashes[16];
  for (uint64_t c = 0; c < 16; ++c) {
    uint32_t base = (uint32_t)(c * kChunk);
    kernel<<<(unsigned)(kChunk / 256), 256>>>(base, d_out, kChunk);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, kChunk * 4, cudaMemcpyDeviceToHost));
    Tally t = parallel(kChunk, [&](Tally& part, size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) {
        uint32_t in = base + (uint32_t)i;
        compare(part, in, ~0ull, h_out[i], host(from_bits(in)));
      }
    });
    all.merge(t);
    // Host results hashed per chunk in order (one thread; cheap next to the compare).
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < kChunk; i += 4096) {
      uint32_t r = bits(host(from_bits(base + (uint32_t)i)));
      h = (h ^ r) * 1099511628211ull;
    }
    hashes[c] = h;
  }
  uint64_t h = 1469598103934665603ull;
  for (uint64_t v : hashes) h = (h ^ v) * 1099511628211ull;
  all.hash = h;
  print(name, "all 2^32 floats", all, 32);
  printf("%-12s host-hash %016llx (every 4096th input)\n", name, (unsigned long long)all.hash);
}

// Random inputs: half uniform over bit patterns, half from a typical range.
template <class T, class Bits>
static void random_inputs(std::vector<T>& xs, std::vector<T>& ys, size_t n, uint64_t seed,
                          Bits from) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> typical(-100.0, 100.0);
  for (size_t i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      xs[i] = from(rng());
      ys[i] = from(rng());
    } else {
      xs[i] = (T)typical(rng);
      ys[i] = (T)typical(rng);
    }
  }
}

// `sweep --host-hash [FILTER]`: only the host-hash lines, without a GPU (for example
// under `mdbook-evidence run --backend emulate`, to compare this machine's C library
// with the GPU machine's).
static void host_hashes(const char* filter) {
#define HASH_UF(name, dev, host)                                                        \
  if (selected(#name, filter)) {                                                        \
    uint64_t hashes[16];                                                                \
    for (uint64_t c = 0; c < 16; ++c) {                                                 \
      uint32_t base = (uint32_t)(c * kChunk);                                           \
      uint64_t h = 1469598103934665603ull;                                              \
      for (size_t i = 0; i < kChunk; i += 4096) {                                       \
        uint32_t r = bits(h_##name(from_bits(base + (uint32_t)i)));                     \
        h = (h ^ r) * 1099511628211ull;                                                 \
      }                                                                                 \
      hashes[c] = h;                                                                    \
    }                                                                                   \
    uint64_t h = 1469598103934665603ull;                                                \
    for (uint64_t v : hashes) h = (h ^ v) * 1099511628211ull;                           \
    printf("%-12s host-hash %016llx (every 4096th input)\n", #name, (unsigned long long)h); \
  }
  UNARY_F(HASH_UF)
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--host-hash") == 0) {
    host_hashes(argc > 2 ? argv[2] : nullptr);
    return 0;
  }
  const char* filter = argc > 1 ? argv[1] : nullptr;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int runtime = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  printf("device math vs the emulator's host expressions: %s, CUDA runtime %d, %u host threads\n",
         prop.name, runtime, threads());

#ifndef CUDA_EMU
  measure_reciprocal_seeds();
#endif

  float *d_out, *h_out;
  CHECK(cudaMalloc(&d_out, kChunk * 4));
  CHECK(cudaMallocHost(&h_out, kChunk * 4));
#define RUN_UF(name, dev, host) \
  if (selected(#name, filter)) sweep_unary_f(#name, k_##name, h_##name, d_out, h_out);
  UNARY_F(RUN_UF)

  // Two-argument float functions: 2^26 random pairs.
  {
    const size_t n = size_t(1) << 26;
    std::vector<float> xs(n), ys(n), out(n);
    random_inputs(xs, ys, n, 66, [](uint64_t r) { return from_bits((uint32_t)r); });
    float *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, n * 4));
    CHECK(cudaMalloc(&dy, n * 4));
    CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMemcpy(dx, xs.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, ys.data(), n * 4, cudaMemcpyHostToDevice));
#define RUN_BF(name, dev, host)                                                                    \
  if (selected(#name, filter)) {                                                                   \
    k_##name<<<(unsigned)(n / 256), 256>>>(dx, dy, dout, n);                                       \
    CHECK(cudaGetLastError());                                                                     \
    CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));                            \
    Tally t = parallel(n, [&](Tally& part, size_t lo, size_t hi) {                                 \
      for (size_t i = lo; i < hi; ++i) compare(part, bits(xs[i]), bits(ys[i]), out[i], h_##name(xs[i], ys[i])); \
    });                                                                                            \
    print(#name, "2^26 random pairs", t, 32);                                                      \
  }
    BINARY_F(RUN_BF)
  }

  // Double functions: 2^26 random inputs (pairs).
  {
    const size_t n = size_t(1) << 26;
    std::vector<double> xs(n), ys(n), out(n);
    random_inputs(xs, ys, n, 67, [](uint64_t r) { return from_bits64(r); });
    double *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, n * 8));
    CHECK(cudaMalloc(&dy, n * 8));
    CHECK(cudaMalloc(&dout, n * 8));
    CHECK(cudaMemcpy(dx, xs.data(), n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, ys.data(), n * 8, cudaMemcpyHostToDevice));
#define RUN_UD(name, dev, host)                                                                   \
  if (selected(#name, filter)) {                                                                  \
    k_##name<<<(unsigned)(n / 256), 256>>>(dx, dout, n);                                          \
    CHECK(cudaGetLastError());                                                                    \
    CHECK(cudaMemcpy(out.data(), dout, n * 8, cudaMemcpyDeviceToHost));                           \
    Tally t = parallel(n, [&](Tally& part, size_t lo, size_t hi) {                                \
      for (size_t i = lo; i < hi; ++i) compare(part, bits(xs[i]), ~0ull, out[i], h_##name(xs[i])); \
    });                                                                                           \
    print(#name, "2^26 random doubles", t, 64);                                                   \
  }
    UNARY_D(RUN_UD)
#define RUN_BD(name, dev, host)                                                                    \
  if (selected(#name, filter)) {                                                                   \
    k_##name<<<(unsigned)(n / 256), 256>>>(dx, dy, dout, n);                                       \
    CHECK(cudaGetLastError());                                                                     \
    CHECK(cudaMemcpy(out.data(), dout, n * 8, cudaMemcpyDeviceToHost));                            \
    Tally t = parallel(n, [&](Tally& part, size_t lo, size_t hi) {                                 \
      for (size_t i = lo; i < hi; ++i) compare(part, bits(xs[i]), bits(ys[i]), out[i], h_##name(xs[i], ys[i])); \
    });                                                                                            \
    print(#name, "2^26 random pairs", t, 64);                                                      \
  }
    BINARY_D(RUN_BD)
  }
  return 0;
}
