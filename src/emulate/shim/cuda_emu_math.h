// cuda_emu_math.h: math the emulator computes its own way rather than with the
// host's C library, kept apart from cuda_runtime.h (which includes it) so that the
// measurement that checks it against the GPU, tests/cuda/math/sweep.cu, compiled by
// nvcc, includes the same code. Plain C++ only.
#ifndef CUDA_EMU_MATH_H
#define CUDA_EMU_MATH_H
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "cuda_emu_rounding_core.h"

namespace cuda_emu {
namespace math {

// ---- CUDA's own math functions, step for step ------------------------------------------
// nvcc compiles these library functions (logf, log2f, log10f, log1pf,
// sinpif, cospif, sinf, cosf, sincosf; log, exp, sincospi) to the
// instruction sequences below,
// read from its PTX and SASS for sm_90 (nvcc 13.0; tests/cuda/fitting/
// cuda_math_ptx.sh prints them): the same constants, the same fused
// multiply-adds in the same order, so that IEEE arithmetic on the CPU gives
// the GPU's bits. Checked against the H200 by tests/cuda/math/sweep.cu: the
// float functions over all 2^32 floats, the double ones over its random
// sample. NaNs as on the GPU: a float result is the GPU's 0x7fffffff; in
// double precision, as on an x86 CPU, an invalid operation gives
// 0xfff8000000000000 and a NaN operand passes through, quieted
// (tests/cuda/math_log_sincospi.cu hashes them).
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t double_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double bits_double(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
inline double words_double(uint32_t high, uint32_t low) {
  return bits_double(static_cast<uint64_t>(high) << 32 | low);
}
const uint32_t kGpuNanF = 0x7fffffffu;

// A polynomial in t by Horner's rule, one fused multiply-add a step, the
// coefficients (bits) from the highest degree down: fma(c0, t, c1), then
// fma(p, t, c2), ... as nvcc's sequences compute them.
template <size_t N>
inline float horner(float t, const uint32_t (&c)[N]) {
  float p = std::fma(bits_float(c[0]), t, bits_float(c[1]));
  for (size_t k = 2; k < N; ++k) p = std::fma(p, t, bits_float(c[k]));
  return p;
}
template <size_t N>
inline double horner(double t, const uint64_t (&c)[N]) {
  double p = std::fma(bits_double(c[0]), t, bits_double(c[1]));
  for (size_t k = 2; k < N; ++k) p = std::fma(p, t, bits_double(c[k]));
  return p;
}

// A float logarithm's reduction: a = 2^e m with m in [split, 2 split)
// (subnormals scaled by 2^23 first), f = m - 1.
struct LogArgument {
  float x;        // a, times 2^23 when subnormal
  uint32_t bits;  // x's bits
  float e;
  float f;
};
inline LogArgument split_exponent(float a, uint32_t split) {
  const bool tiny = a < 0x1p-126f;
  LogArgument r;
  r.x = tiny ? a * 0x1p23f : a;
  r.bits = float_bits(r.x);
  const uint32_t e_bits = (r.bits - split) & 0xff800000u;
  r.e = std::fma(static_cast<float>(static_cast<int32_t>(e_bits)), 0x1p-23f, tiny ? -23.0f : 0.0f);
  r.f = bits_float(r.bits - e_bits) - 1.0f;
  return r;
}

// fma(x, inf, inf) for an x that is negative, infinite or NaN, as its bits come
// out, without raising x86's invalid-operation exception (which the shim traps in
// device code to give the GPU's NaN, cuda_emu_fpe.h: a trap for every negative
// argument of a logarithm would cost microseconds each): +inf stays; the float
// forms' other results are NaNs their callers make the GPU's 0x7fffffff; the
// double one gives x86's (and the GPU's) 0xfff8000000000000, or a NaN x quieted.
inline float inf_times_inf_plus(float x) {
  return float_bits(x) == 0x7f800000u ? INFINITY : bits_float(0xffc00000u);
}
inline double inf_times_inf_plus(double x) {
  const uint64_t b = double_bits(x);
  if (b == 0x7ff0000000000000ull) return x;
  if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return bits_double(b | (1ull << 51));
  return bits_double(0xfff8000000000000ull);
}

// log(a) before its zero case: the exponent split at 2/3 (so the reduced
// argument f lies in [-1/3, 1/3)), a degree-10 polynomial in f, then
// e * log(2); *scaled is a, times 2^23 when subnormal.
inline float logf_before_zero(float a, float* scaled) {
  const LogArgument g = split_exponent(a, 0x3f2aaaabu);
  const float p = horner(g.f, {0xbe055027u, 0x3e1039f6u, 0xbdf8cdccu, 0x3e0f2955u, 0xbe2ad8b9u, 0x3e4ced0bu,
                               0xbe7fff22u, 0x3eaaaa78u, 0xbf000000u});
  float r = std::fma(g.e, bits_float(0x3f317218u), std::fma(g.f * p, g.f, g.f));
  if (g.bits >= 0x7f800000u) r = inf_times_inf_plus(g.x);  // negative, infinite, NaN
  *scaled = g.x;
  return r;
}

inline float gpu_nan_if_nan(float r) { return std::isnan(r) ? bits_float(kGpuNanF) : r; }

inline float cuda_logf(float a) {
  float x;
  const float r = logf_before_zero(a, &x);
  return gpu_nan_if_nan(x == 0.0f ? -INFINITY : r);
}

// log10f: logf's value times log10(e), rounded once more.
inline float cuda_log10f(float a) {
  float x;
  const float r = logf_before_zero(a, &x) * bits_float(0x3ede5bd9u);
  return gpu_nan_if_nan(x == 0.0f ? -INFINITY : r);
}

// log2f: the exponent split at 0.7071 (f in [-0.29, 0.41)), a polynomial
// in f for log2(1 + f) - f log2(e), then f log2(e) and e added.
inline float cuda_log2f(float a) {
  const LogArgument g = split_exponent(a, 0x3f3504f3u);
  const float p = horner(g.f, {0x3dc6b27fu, 0xbe2c7f30u, 0x3e2fcf2au, 0xbe374e43u, 0x3e520bf4u, 0xbe763c8bu,
                               0x3e93bf99u, 0xbeb8aa49u, 0x3ef6384au, 0xbf38aa3bu});
  float r = g.e + std::fma(g.f, bits_float(0x3fb8aa3bu), g.f * (g.f * p));
  if (g.bits >= 0x7f800000u) r = inf_times_inf_plus(g.x);
  return gpu_nan_if_nan(g.x == 0.0f ? -INFINITY : r);
}

// log1pf: 1 + x rounded toward zero picks the exponent e, the argument is
// rebuilt exactly as f = (x - (2^e - 1)) / 2^e in [-1/4, 1/2), a degree-9
// polynomial, then e * log(2).
inline float cuda_log1pf(float x) {
  const uint32_t xb = float_bits(x);
  const float one_more = rounding::add<float>(x, 1.0f, rounding::kRZ);  // add.rz.f32
  const uint32_t e_bits = (float_bits(one_more) - 0x3f400000u) & 0xff800000u;
  const float scaled = bits_float(xb - e_bits);
  const float four_over = bits_float(0x40800000u - e_bits);
  const float f = std::fma(0.25f, four_over, -1.0f) + scaled;
  const float e = static_cast<float>(static_cast<int32_t>(e_bits)) * 0x1p-23f;
  const float p = horner(f, {0xbd39bf78u, 0x3dd80012u, 0xbe0778e0u, 0x3e146475u, 0xbe2a68ddu, 0x3e4caf9eu,
                             0xbe800042u, 0x3eaaaae6u, 0xbf000000u});
  const float q = f * p;
  float r = std::fma(e, bits_float(0x3f317218u), std::fma(q, f, f));
  if (xb >= 0x7f800000u) {                         // negative, infinite, NaN
    if (static_cast<int32_t>(xb) >= -1082130431) {  // not in [-1, -0]
      r = inf_times_inf_plus(x);
    }
    if (x == 0.0f) r = -0.0f;
  }
  return gpu_nan_if_nan(r);
}

// A float converted to int toward zero as the GPU does: saturated, NaN 0.
inline int32_t gpu_float_to_int(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT32_MAX;
  if (f <= -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(f);
}

// sinpif and cospif: n = rint(2x), r = x - n / 2, sin(pi r) and cos(pi r)
// as polynomials, chosen and negated (0 - v, so never -0) by n's
// quadrant; an integer's sinpif is a zero of x's sign, and cospif takes
// |x| > 2^24 (all even) as zero.
inline float sin_cos_pif(float x, int shift) {
  const float n = std::nearbyint(x + x);
  const int32_t quadrant = gpu_float_to_int(n) + shift;
  const float r = std::fma(-n, 0.5f, x);
  const float r2 = r * r;
  const float sine = std::fma(bits_float(0x40490fdbu), r,
                              std::fma(horner(r2, {0xbf17acc9u, 0x40233590u, 0xc0a55df6u}), std::fma(r2, r, 0.0f), 0.0f));
  const float cosine = horner(r2, {0x3e684e12u, 0xbfaad2e0u, 0x4081e0cfu, 0xc09de9e6u, 0x3f800000u});
  const float v = (quadrant & 1) ? cosine : sine;
  return (quadrant & 2) ? 0.0f - v : v;
}
inline float cuda_sinpif(float x) {
  float v = sin_cos_pif(x, 0);
  if (std::trunc(x) == x) v = x * 0.0f;
  return gpu_nan_if_nan(v);
}
inline float cuda_cospif(float x) {
  if (!(std::fabs(x) <= 0x1p24f) && !std::isnan(x)) x = x * 0.0f;
  return gpu_nan_if_nan(sin_cos_pif(x, 1));
}

// sinf, cosf and sincosf: x = j pi/2 + r with r in [-pi/4, pi/4], by three
// fused multiply-adds below 105615 and by Payne-Hanek beyond (x's
// significand times 192 bits of 2/pi, the bits that matter for x's
// exponent kept as a 64-bit fixed-point fraction, times pi/2 in double);
// then the sine or cosine polynomial of r by j's parity, negated when j's
// bit 1 is set (the cosine is the sine of j + 1).
inline float reduce_quarter_turns(float x, int32_t* quadrant) {
  const uint32_t two_over_pi[6] = {0x3c439041u, 0xdb629599u, 0xf534ddc0u,
                                   0xfc2757d1u, 0x4e441529u, 0xa2f9836eu};
  const float q = x * bits_float(0x3f22f983u);
  // A q too large for an int (or NaN) goes the long way below, which sets j; it is
  // not converted here (x86 would raise the invalid-operation exception, which
  // the shim traps in device code: cuda_emu_fpe.h).
  int32_t j = std::isnan(q) || !(std::fabs(q) < 0x1p31f) ? 0 : static_cast<int32_t>(std::nearbyint(q));
  const float fj = static_cast<float>(j);
  float r = std::fma(fj, bits_float(0xbfc90fdau), x);
  r = std::fma(fj, bits_float(0xb3a22168u), r);
  r = std::fma(fj, bits_float(0xa7c234c5u), r);
  const float magnitude = std::fabs(x);
  if (!(magnitude < bits_float(0x47ce4780u)) && !std::isnan(x)) {
    if (magnitude == INFINITY) {
      r = x * 0.0f;
      j = 0;
    } else {
      const uint32_t bits = float_bits(x);
      const int32_t e = static_cast<int32_t>((bits >> 23) & 255u) - 128;
      const uint32_t significand = (bits << 8) | 0x80000000u;
      const uint32_t word = static_cast<uint32_t>(e) >> 5;
      uint32_t product[7];
      uint64_t carry = 0;
      for (int i = 0; i < 6; ++i) {
        const uint64_t t = static_cast<uint64_t>(two_over_pi[i]) * significand + carry;
        product[i] = static_cast<uint32_t>(t);
        carry = t >> 32;
      }
      product[6] = static_cast<uint32_t>(carry);
      uint32_t high = product[6 - word], low = product[5 - word];
      const uint32_t shift = static_cast<uint32_t>(e) & 31u;
      if (shift != 0) {
        high = (low >> (32 - shift)) + (high << shift);
        low = (product[4 - word] >> (32 - shift)) + (low << shift);
      }
      const uint32_t sign = bits & 0x80000000u;
      const uint32_t top = (low >> 30) | (high << 2);
      const uint32_t round_up = top >> 31;
      const int32_t turns = static_cast<int32_t>(round_up + (high >> 30));
      j = sign == 0 ? turns : -turns;
      const uint32_t r_sign = round_up != 0 ? sign ^ 0x80000000u : sign;
      const uint32_t mask = round_up != 0 ? 0xffffffffu : 0u;
      const uint64_t fraction = static_cast<uint64_t>(top ^ mask) << 32 | ((low << 2) ^ mask);
      const double radians = static_cast<double>(static_cast<int64_t>(fraction)) * bits_double(0x3bf921fb54442d19ull);
      const float reduced = static_cast<float>(radians);
      r = r_sign == 0 ? reduced : -reduced;
    }
  }
  *quadrant = j;
  return r;
}

inline float sine_of_quadrant(float r, int32_t j) {
  const bool odd = (j & 1) != 0;
  const float r2 = r * r;
  const float first = odd ? std::fma(bits_float(0x37cbac00u), r2, bits_float(0xbab607edu)) : bits_float(0xb94d4153u);
  float p = std::fma(first, r2, bits_float(odd ? 0x3d2aaabbu : 0x3c0885e4u));
  p = std::fma(p, r2, bits_float(odd ? 0xbeffffffu : 0xbe2aaaa8u));
  const float base = odd ? 1.0f : r;
  float v = std::fma(p, std::fma(r2, base, 0.0f), base);
  if (j & 2) v = std::fma(v, -1.0f, 0.0f);
  return gpu_nan_if_nan(v);
}

inline float cuda_sinf(float x) {
  int32_t j;
  const float r = reduce_quarter_turns(x, &j);
  return sine_of_quadrant(r, j);
}
inline float cuda_cosf(float x) {
  int32_t j;
  const float r = reduce_quarter_turns(x, &j);
  return sine_of_quadrant(r, j + 1);
}
inline void cuda_sincosf(float x, float* sine, float* cosine) {
  int32_t j;
  const float r = reduce_quarter_turns(x, &j);
  *sine = sine_of_quadrant(r, j);
  *cosine = sine_of_quadrant(r, j + 1);
}

// The hardware's reciprocal seed (MUFU.RCP64H): the high word of an
// approximation of 1 / d from d's high word, the low word zero. Measured on
// the H200 for the high words log's reduction produces
// (tests/cuda/fitting/rcp64h.cu); the emulator's runtime reads the table
// (cuda_emu_tables.cpp).
uint32_t reciprocal_high(uint32_t high);

// The hardware's float reciprocal and reciprocal square root (MUFU.RCP,
// rcp.approx.ftz.f32; MUFU.RSQ, rsqrt.approx.ftz.f32), measured on the H200
// over all 2^32 floats (tests/cuda/fitting/mufu_rcp_rsq.cu): each follows a
// table over one period, the emulator's runtime reads it
// (cuda_emu_tables.cpp). mufu_rcp_entry(f): the reciprocal of the float of
// [1, 2) with fraction f; mufu_rsq_entry(i): the reciprocal square root of
// the float with bits 0x3f800000 + i, in [1, 4).
uint32_t mufu_rcp_entry(uint32_t fraction);
uint32_t mufu_rsq_entry(uint32_t index);

// rcp.approx.ftz.f32: for x = +-2^e m the entry of m's fraction with its
// exponent lowered by e and x's sign, a zero of x's sign where that
// exponent would be below the normal range; zeros and subnormals give the
// infinity of their sign, infinities a zero of theirs, NaN 0x7fffffff.
inline float hardware_rcp(float x) {
  const uint32_t bits = float_bits(x);
  const uint32_t sign = bits & 0x80000000u;
  const uint32_t field = (bits >> 23) & 255u;
  if (field == 255u) return bits_float((bits & 0x7fffffu) != 0 ? kGpuNanF : sign);
  if (field == 0u) return bits_float(sign | 0x7f800000u);
  const uint32_t entry = mufu_rcp_entry(bits & 0x7fffffu);
  const int32_t exponent = static_cast<int32_t>(entry >> 23) - (static_cast<int32_t>(field) - 127);
  if (exponent <= 0) return bits_float(sign);
  return bits_float(sign | static_cast<uint32_t>(exponent) << 23 | (entry & 0x7fffffu));
}

// rsqrt.approx.ftz.f32: for positive x = 2^e m the entry of the float of
// [1, 4) that is x / 2^(2 floor(e / 2)), its exponent lowered by
// floor(e / 2); zeros and subnormals give the infinity of their sign,
// +infinity +0, negative numbers and NaN 0x7fffffff.
inline float hardware_rsqrt(float x) {
  const uint32_t bits = float_bits(x);
  const uint32_t field = (bits >> 23) & 255u;
  if (field == 0u) return bits_float((bits & 0x80000000u) | 0x7f800000u);
  if (bits == 0x7f800000u) return 0.0f;
  if ((bits & 0x80000000u) != 0 || field == 255u) return bits_float(kGpuNanF);
  const int32_t e = static_cast<int32_t>(field) - 127;
  const int32_t half = e >= 0 ? e / 2 : -((1 - e) / 2);  // floor(e / 2)
  const uint32_t index = static_cast<uint32_t>(e - 2 * half) << 23 | (bits & 0x7fffffu);
  const uint32_t entry = mufu_rsq_entry(index);
  const uint32_t exponent = static_cast<uint32_t>(static_cast<int32_t>(entry >> 23) - half);
  return bits_float(exponent << 23 | (entry & 0x7fffffu));
}

// The hardware's 2^x (MUFU.EX2, ex2.approx.ftz.f32), measured on the H200
// over all 2^32 floats (tests/cuda/fitting/mufu_ex2.cu): on the floats of
// magnitude below one it is a table per sign, which the emulator's runtime
// reads (cuda_emu_tables.cpp); mufu_ex2_below_one takes such a float's bits
// and gives its result's.
uint32_t mufu_ex2_below_one(uint32_t bits);

// ex2.approx.ftz.f32: a magnitude below one (zeros and subnormals give 1)
// from the table; any other x is x's fraction's result scaled by
// 2^floor(x), or for negative x the result of -frac|x| scaled by
// 2^-floor|x|: infinity from 128 on, +0 where the scaled value is below
// 2^-126; NaN gives 0x7fffffff.
inline float hardware_ex2(float x) {
  if (std::isnan(x)) return bits_float(kGpuNanF);
  const uint32_t sign = float_bits(x) & 0x80000000u;
  const float m = std::fabs(x);
  if (m < 1.0f) return bits_float(mufu_ex2_below_one(float_bits(x)));
  if (sign == 0 && m >= 128.0f) return INFINITY;
  if (sign != 0 && m >= 256.0f) return 0.0f;
  const float n = std::floor(m);
  const float fraction = m - n;  // exact
  const float entry = bits_float(mufu_ex2_below_one(float_bits(fraction) | sign));
  const double v = std::ldexp(static_cast<double>(entry), sign != 0 ? -static_cast<int>(n) : static_cast<int>(n));
  return v < 0x1p-126 ? 0.0f : static_cast<float>(v);  // exact: a power-of-two scaling
}

// expf and exp10f as nvcc builds them: j = floor(x log2 b), clamped to
// [-126, 126], from a saturated fma rounded down onto 1.5 2^23 + 1 (whose
// low bits, shifted into the exponent, are 2^j); the remainder
// x log2 b - j in two fmas (log2 b in two parts); its hardware 2^x times
// 2^j.
inline float exp_by_ex2(float x, uint32_t log2b_over_252, uint32_t log2b_hi, uint32_t log2b_lo) {
  float s = std::fma(x, bits_float(log2b_over_252), 0.5f);
  s = s > 0.0f ? (s < 1.0f ? s : 1.0f) : 0.0f;  // .SAT: NaN gives 0
  const float r = rounding::fma_<float>(s, 252.0f, 12582913.0f, rounding::kRD);
  float t = r - 12583039.0f;
  t = std::fma(x, bits_float(log2b_hi), -t);
  t = std::fma(x, bits_float(log2b_lo), t);
  return gpu_nan_if_nan(bits_float(float_bits(r) << 23) * hardware_ex2(t));
}

inline float cuda_expf(float x) { return exp_by_ex2(x, 0x3bbb989du, 0x3fb8aa3bu, 0x32a57060u); }
inline float cuda_exp10f(float x) { return exp_by_ex2(x, 0x3c57fa62u, 0x40549a78u, 0x33979a37u); }

// exp2f (ex2.approx.f32, without ftz): below -126 the hardware 2^x of x / 2,
// squared, so that subnormal results are kept.
inline float cuda_exp2f(float x) {
  const bool low = x < -126.0f;
  const float r = hardware_ex2(low ? x * 0.5f : x);
  return low ? r * r : r;
}

// __expf and __exp10f: x log2 b rounded to a float, then exp2f's steps.
inline float cuda_fast_expf(float x) { return cuda_exp2f(x * bits_float(0x3fb8aa3bu)); }
inline float cuda_fast_exp10f(float x) { return cuda_exp2f(x * bits_float(0x40549a78u)); }

// The hardware's log2 (MUFU.LG2, lg2.approx.ftz.f32), measured on the H200
// over all 2^32 floats (tests/cuda/fitting/mufu_lg2.cu): its results for
// the exponents 0, -1 and -2 are three tables over the 2^23 mantissas
// (table 0, 1, 2: inputs 0x3f800000, 0x3f000000, 0x3e800000 + i), which the
// emulator's runtime reads (cuda_emu_tables.cpp).
uint32_t mufu_lg2_entry(int table, uint32_t mantissa);

// lg2.approx.ftz.f32: for x = 2^e (1 + i 2^-23) with e in {0, -1, -2} the
// tables' entry; for e >= 1, e + floor(L 2^23) 2^-23 (L table 0's entry),
// for e <= -3, e + c 2^-23 with c = 2^24 + N 2^23 (N table 2's, which holds
// the value rounded up), each cut toward zero to a float. Zeros and
// subnormals of either sign give -infinity, negative numbers and NaN
// 0x7fffffff, +infinity +infinity.
inline float hardware_lg2(float x) {
  const uint32_t bits = float_bits(x);
  if (std::isnan(x)) return bits_float(kGpuNanF);
  if ((bits & 0x7fffffffu) < 0x00800000u) return -INFINITY;
  if ((bits & 0x80000000u) != 0) return bits_float(kGpuNanF);
  if (std::isinf(x)) return INFINITY;
  const int e = static_cast<int>(bits >> 23) - 127;
  const uint32_t i = bits & 0x7fffffu;
  if (e <= 0 && e >= -2) return bits_float(mufu_lg2_entry(-e, i));
  const double grid = e >= 1 ? std::floor(static_cast<double>(bits_float(mufu_lg2_entry(0, i))) * 0x1p23)
                             : 0x1p24 + static_cast<double>(bits_float(mufu_lg2_entry(2, i))) * 0x1p23;
  const double v = e + grid * 0x1p-23;  // exact
  const float nearest = static_cast<float>(v);
  return std::fabs(static_cast<double>(nearest)) > std::fabs(v) ? std::nextafter(nearest, 0.0f) : nearest;
}

// __log2f (lg2.approx.f32, without ftz): a subnormal (of either sign) is
// scaled by 2^24 first and 24 taken off the result.
inline float cuda_fast_log2f(float x) {
  const bool low = !(std::fabs(x) >= 0x1p-126f);
  const float r = hardware_lg2(low ? x * 16777216.0f : x);
  return low ? r - 24.0f : r;
}
// __logf, __log10f: that times log b (one multiplication); __powf(x, y):
// 2^(y __log2f(x)) by exp2f's steps.
inline float cuda_fast_logf(float x) { return cuda_fast_log2f(x) * bits_float(0x3f317218u); }
inline float cuda_fast_log10f(float x) { return cuda_fast_log2f(x) * bits_float(0x3e9a209bu); }
inline float cuda_fast_powf(float x, float y) { return cuda_exp2f(y * cuda_fast_log2f(x)); }

// erfinvf, erfcinvf and normcdfinvf as nvcc builds them, on the hardware
// log2 and reciprocal square root. The central polynomial in l = lg2(1 -
// x^2) (erfinvf) or lg2(y (2 - y)) (the others, y = x or 2x) is one chain
// of fmas; the tails, in r = rsqrt(-l), another.
inline float erfinv_central(float l) {
  const uint32_t c[9] = {0x3221f645u, 0xb4016fdau, 0x3468f846u, 0x370742aau, 0xb804db4du,
                         0xba4afea1u, 0x3bb5c027u, 0x3e24ae0fu, 0x3f62dfc4u};
  float p = std::fma(-l, -bits_float(0x2f8a6370u), bits_float(c[0]));
  for (int k = 1; k < 9; ++k) p = std::fma(-l, p, bits_float(c[k]));
  return p;
}
inline float cuda_erfinvf(float x) {
  const float l = hardware_lg2(std::fma(x, -x, 1.0f));
  const float central = x * erfinv_central(l);
  if (l >= -8.2f || std::isnan(l)) return gpu_nan_if_nan(central);
  const float r = hardware_rsqrt(-l);
  float p = std::fma(r, -bits_float(0x3f1704a1u), bits_float(0xbf29baa5u));
  const uint32_t c[4] = {0x3fcc6adcu, 0xbf2cdaedu, 0xbdc30537u, 0x3f55d9b9u};
  for (uint32_t k : c) p = std::fma(r, p, bits_float(k));
  const float tail = l == -INFINITY ? -l : p * (l * -r);
  return gpu_nan_if_nan(std::copysign(tail, x));
}
// y in (0, 2): erfcinv(y), the steps erfcinvf and normcdfinvf (of y = 2x)
// share.
inline float erfcinv_steps(float y) {
  const float rest = 2.0f - y;
  if (!(y > bits_float(0x3fff9097u) || std::isnan(y)) && y >= bits_float(0x3b5ed289u)) {
    const float p = erfinv_central(hardware_lg2(y * rest));
    return std::fma(-y, p, p);
  }
  const bool upper = y > 1.0f;
  const float l = cuda_fast_log2f(upper ? rest : y);
  const float r = hardware_rsqrt(-l);
  float p = std::fma(r, -bits_float(0x427c73f1u), bits_float(0x42fef829u));
  const uint32_t c[7] = {0xc2e4361cu, 0x42714d9bu, 0xc1ae51b3u, 0x40cef504u, 0xbfea9e05u, 0xbcf871f4u, 0x3f553775u};
  for (uint32_t k : c) p = std::fma(r, p, bits_float(k));
  const float s = l != -INFINITY ? l * -r : -l;
  return p * (upper ? -s : s);
}
inline float cuda_erfcinvf(float x) { return gpu_nan_if_nan(erfcinv_steps(x)); }
inline float cuda_normcdfinvf(float x) {
  return gpu_nan_if_nan(std::fma(erfcinv_steps(x + x), -bits_float(0x3fb504f3u), 0.0f));
}

// cbrtf and rcbrtf as nvcc builds them: the hardware 2^x of -2/3 (or -1/3)
// times __log2f(|x|), refined once (Newton's step for 1/cbrt, times |x|
// for cbrtf), x's sign; zeros and infinities (x + x == x) give x (cbrtf)
// or the infinity (zero) of x's sign (rcbrtf).
inline float cuda_cbrtf(float x) {
  const float r = hardware_ex2(cuda_fast_log2f(std::fabs(x)) * bits_float(0xbf2aaaabu));
  const float a = std::fabs(x) * r;
  const float t = std::fma(a, -(r * a), 1.0f) * bits_float(0x3eaaaaabu);
  const float y = std::fma(a, t, a);
  if (!(x + x != x)) return x + x;
  return gpu_nan_if_nan(x >= 0.0f || std::isnan(x) ? y : -y);
}
inline float cuda_rcbrtf(float x) {
  const float r = hardware_ex2(cuda_fast_log2f(std::fabs(x)) * bits_float(0xbeaaaaabu));
  const float t = std::fma(r * r, -(std::fabs(x) * r), 1.0f);
  const float y = std::fma(t, r * bits_float(0x3eaaaaabu), r);
  if (!(x + x != x)) return bits_float(float_bits(x + x) ^ 0x7f800000u);
  return gpu_nan_if_nan(x >= 0.0f || std::isnan(x) ? y : -y);
}

// log: the mantissa m split at sqrt(2), u = 2 (m - 1) / (m + 1) from the
// hardware seed refined once, log(m) = u + u^3 P(u^2) with the rounding
// error of u carried, plus e * log(2) in two parts.
inline double cuda_log(double a) {
  double x = a;
  int32_t high = static_cast<int32_t>(double_bits(x) >> 32);
  int32_t e = -1023;
  if (!(high > 0xfffff)) {
    x = a * 0x1p54;
    high = static_cast<int32_t>(double_bits(x) >> 32);
    e = -1077;
  }
  const uint32_t low = static_cast<uint32_t>(double_bits(x));
  if (static_cast<uint32_t>(high) - 1u >= 0x7fefffffu) {  // zero, negative, infinite, NaN
    double r = inf_times_inf_plus(x);
    if (bits_float(static_cast<uint32_t>(high)) == 0.0f) r = -INFINITY;
    return r;
  }
  e += static_cast<int32_t>(static_cast<uint32_t>(high) >> 20);
  uint32_t m_high = (static_cast<uint32_t>(high) & 0x800fffffu) | 0x3ff00000u;
  if (static_cast<int32_t>(m_high) >= 0x3ff6a09f) {
    m_high -= 0x100000u;
    e += 1;
  }
  const double m = words_double(m_high, low);
  const double d = m + 1.0;
  const double seed = words_double(reciprocal_high(static_cast<uint32_t>(double_bits(d) >> 32)), 0);
  double t = std::fma(-d, seed, 1.0);
  t = std::fma(t, t, t);
  const double q = std::fma(t, seed, seed);
  const double f = m - 1.0;
  const double u = std::fma(f, q, f * q);
  const double u2 = u * u;
  const double p = horner(u2, {0x3eb1380b3ae80f1eull, 0x3ed0ee258b7a8b04ull, 0x3ef3b2669f02676full,
                               0x3f1745cba9ab0956ull, 0x3f3c71c72d1b5154ull, 0x3f624924923be72dull,
                               0x3f8999999999a3c4ull, 0x3fb5555555555554ull});
  double g = f - u;
  g = g + g;
  g = std::fma(-u, f, g);
  const double tail = std::fma(u2 * p, u, q * g);
  const double k = static_cast<double>(e);
  const double ln2_high = bits_double(0x3fe62e42fefa39efull);
  const double head = std::fma(k, ln2_high, u);
  double c = std::fma(-k, ln2_high, head) - u;
  c = std::fma(k, bits_double(0x3c7abc9e3b39803full), tail - c);
  return head + c;
}

// exp: k = rint(x / log(2)) by the 1.5 * 2^52 shift, t = x - k log(2) in
// two parts, a degree-11 polynomial, then k added to the exponent; near
// overflow and underflow (|x| >= 708.4) the scale goes in two halves, and
// beyond 745 the result is infinity or zero.
inline double cuda_exp(double x) {
  const double shifted = std::fma(x, bits_double(0x3ff71547652b82feull), bits_double(0x4338000000000000ull));
  const int32_t k = static_cast<int32_t>(static_cast<uint32_t>(double_bits(shifted)));
  const double kd = shifted + bits_double(0xc338000000000000ull);
  double t = std::fma(kd, bits_double(0xbfe62e42fefa39efull), x);
  t = std::fma(kd, bits_double(0xbc7abc9e3b39803full), t);
  const double p = horner(t, {0x3e5ade1569ce2bdfull, 0x3e928af3fca213eaull, 0x3ec71dee62401315ull,
                              0x3efa01997c89eb71ull, 0x3f2a01a014761f65ull, 0x3f56c16c1852b7afull,
                              0x3f81111111122322ull, 0x3fa55555555502a1ull, 0x3fc5555555555511ull,
                              0x3fe000000000000bull, 0x3ff0000000000000ull, 0x3ff0000000000000ull});
  const uint64_t pb = double_bits(p);
  const uint32_t p_low = static_cast<uint32_t>(pb), p_high = static_cast<uint32_t>(pb >> 32);
  const uint32_t ku = static_cast<uint32_t>(k);
  const float magnitude = std::fabs(bits_float(static_cast<uint32_t>(double_bits(x) >> 32)));
  if (magnitude < bits_float(0x4086232bu)) return words_double(p_high + (ku << 20), p_low);
  double r = x < 0.0 ? 0.0 : x + INFINITY;
  if (magnitude < bits_float(0x40874800u)) {
    const int32_t half = static_cast<int32_t>(ku + (ku >> 31)) >> 1;
    const double head = words_double(p_high + (static_cast<uint32_t>(half) << 20), p_low);
    const double scale = words_double(((ku - static_cast<uint32_t>(half)) << 20) + 0x3ff00000u, 0);
    r = head * scale;
  }
  return r;
}

// sincospi: n = rint(2x), t = pi (x - n / 2) in two parts, the sine and
// cosine polynomials in t^2, swapped and negated by n's quadrant; integers
// give a zero sine of x's sign; |x| >= 2^53 counts as zero (all even).
inline void cuda_sincospi(double a, double* sine, double* cosine) {
  double x = a;
  if ((static_cast<uint32_t>(double_bits(x) >> 32) << 1) >= 0x86800001u) x = x * 0.0;
  // A NaN flows through as on the GPU: its doubled high word is a
  // subnormal, so n is zero and the NaN keeps its sign and payload.
  const uint64_t xb = double_bits(x);
  const double twice = words_double(static_cast<uint32_t>(xb >> 32) + 0x100000u, static_cast<uint32_t>(xb));
  const double n = std::nearbyint(twice);
  const int64_t quadrant = static_cast<int64_t>(n);
  const double r = std::fma(-n, 0.5, x);
  const double t = std::fma(r, bits_double(0x400921fb54442d18ull), r * bits_double(0x3ca1a62633145c07ull));
  const double t2 = t * t;
  double c = horner(t2, {0xbda8ff8320fd8164ull, 0x3e21eea7c1ef8528ull, 0xbe927e4f8e06e6d9ull,
                         0x3efa01a019ddbce9ull, 0xbf56c16c16c15d47ull, 0x3fa5555555555551ull,
                         0xbfe0000000000000ull, 0x3ff0000000000000ull});
  double s = horner(t2, {0x3de5db65f9785ebaull, 0xbe5ae5f12cb0d246ull, 0x3ec71de369ace392ull,
                         0xbf2a01a019db62a1ull, 0x3f81111111110818ull, 0xbfc5555555555554ull, 0x0ull});
  s = std::fma(s, t, t);
  if (quadrant & 1) {
    const double swapped = -s;
    s = c;
    c = swapped;
  }
  if (quadrant & 2) {
    s = -s;
    c = -c;
  }
  if (std::trunc(x) == x) s = x * 0.0;
  *sine = s;
  *cosine = c + 0.0;
}

// ---- built on the hardware reciprocal and reciprocal square root ------------------------
// tanf, atanf, atan2f, asinf, acosf, hypotf, powf and rsqrtf as nvcc 13.0
// compiles them for sm_90 (-O2), read from the SASS where ptxas fused or
// kept PTX's unrounded mul.f32 and add.f32 (here it kept each one apart).

// tanf: sinf's reduction (j quarter turns, r in [-pi/4, pi/4]), an odd
// polynomial of r, and for odd j the hardware reciprocal of its negation.
inline float cuda_tanf(float x) {
  int32_t j;
  const float r = reduce_quarter_turns(x, &j);
  const float r2 = r * r;
  const float p = horner(r2, {0x3c190000u, 0x3b560000u, 0x3cc70000u, 0x3d5b0000u, 0x3e089438u, 0x3eaaaa88u});
  float v = std::fma(p, r2 * r, r);
  if (std::fabs(r) == bits_float(0x3a00b43cu)) v = r;
  if (j & 1) v = hardware_rcp(-v);
  return gpu_nan_if_nan(v);
}

// atanf: t = |x|, or its hardware reciprocal above 1, an odd polynomial of
// t, subtracted from pi/2 above 1, with x's sign.
inline float cuda_atanf(float x) {
  const float a = std::fabs(x);
  const bool above = a > 1.0f;
  const float t = above ? hardware_rcp(a) : a;
  const float t2 = t * t;
  const float p = horner(t2, {0x3b2090aau, 0xbc6be14fu, 0x3d23397eu, 0xbd948a7au, 0x3dd76b21u, 0xbe111e88u,
                              0x3e4caf60u, 0xbeaaaa27u});
  float v = std::fma(t, t2 * p, t);
  if (above) v = std::fma(bits_float(0x3f6ee581u), bits_float(0x3fd774ebu), -v);
  if (!std::isnan(x)) v = std::copysign(v, x);
  return gpu_nan_if_nan(v);
}

// atan2f(y, x): q = min(|x|, |y|) / max(|x|, |y|) correctly rounded, atanf's
// kind of polynomial of q, then placed in its octant by x's sign bit and
// which of |x|, |y| is larger; equal magnitudes give pi/4 or 3 pi/4, a zero
// denominator 0 or pi; y's sign; NaN if either is.
inline float cuda_atan2f(float y, float x) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const bool steep = ay > ax;
  const float den = steep ? ay : ax;
  const float num = steep ? ax : ay;
  const float q = num / den;  // div.rn.f32
  const float q2 = q * q;
  const float p = horner(q2, {0x3b33710bu, 0xbc807748u, 0x3d2cdab2u, 0xbd992d10u, 0x3dd9ea6cu, 0xbe117cb1u,
                              0x3e4cbce0u, 0xbeaaaa7du});
  float v = std::fma(q2 * p, q, q);
  const bool x_negative = (float_bits(x) & 0x80000000u) != 0;
  if (steep) {
    v = std::fma(bits_float(0x3f6ee581u), bits_float(0x3fd774ebu), x_negative ? v : -v);
  } else if (x_negative) {
    v = std::fma(bits_float(0x3feee581u), bits_float(0x3fd774ebu), -v);
  }
  if (ax == ay) v = bits_float(x_negative ? 0x4016cbe4u : 0x3f490fdbu);
  if (den == 0.0f) v = x_negative ? bits_float(0x40490fdbu) : 0.0f;
  const float sum = ax + ay;
  if (std::isnan(sum)) return bits_float(kGpuNanF);
  return gpu_nan_if_nan(std::copysign(v, y));
}

// asinf and acosf share sqrt((1 - |x|) / 2), from the hardware reciprocal
// square root refined once, for |x| > 0.56 (0 at |x| = 1).
inline float half_complement_sqrt(float a) {
  const float h = std::fma(-a, 0.5f, 0.5f);
  const float s = hardware_rsqrt(h);
  const float hs = h * s;
  const float half_s = s * 0.5f;
  const float e = std::fma(-hs, half_s, 0.5f);
  const float r = std::fma(hs, e, hs);
  return a != 1.0f ? r : 0.0f;
}

// asinf: t = |x|, or sqrt((1 - |x|) / 2) above 0.56, an odd polynomial of
// t, above 0.56 pi/2 - 2 v; x's sign.
inline float cuda_asinf(float x) {
  const float a = std::fabs(x);
  const bool above = a > bits_float(0x3f0f5c29u);
  const float t = above ? half_complement_sqrt(a) : a;
  const float t2 = t * t;
  const float p = horner(t2, {0x3d4dd2f7u, 0x3c99ca97u, 0x3d3f90e8u, 0x3d993ccfu, 0x3e2aac04u});
  float v = std::fma(t, t2 * p, t);
  if (above) v = std::fma(bits_float(0x3f6ee581u), bits_float(0x3fd774ebu), v * -2.0f);
  if (!std::isnan(v)) v = std::copysign(v, x);
  return gpu_nan_if_nan(v);
}

// acosf: t as asinf's with x's sign, an odd polynomial v of t; below 0.56
// in magnitude pi/2 - v, above 0.56 2 v, below -0.56 2 (pi/2 - v).
inline float cuda_acosf(float x) {
  const float a = std::fabs(x);
  const bool above = a > bits_float(0x3f0f5c29u);
  const float t = std::copysign(above ? half_complement_sqrt(a) : a, x);
  const float t2 = t * t;
  const float p = horner(t2, {0x3d10ecefu, 0x3c8b1abbu, 0x3cfc028cu, 0x3d372139u, 0x3d9993dbu, 0x3e2aaac6u});
  const float v = std::fma(t, t2 * p, t);
  float r = v;
  if (!(x > bits_float(0x3f0f5c29u))) r = std::fma(bits_float(0x3f6ee581u), bits_float(0x3fd774ebu), above ? v : -v);
  if (above) r = r + r;
  return gpu_nan_if_nan(r);
}

// hypotf: both magnitudes scaled by a power of two from the larger's
// exponent, the square root (sqrt.rn) of the sum of squares, scaled back;
// the larger when the smaller is zero, infinity when the smaller is.
inline float cuda_hypotf(float x, float y) {
  const uint32_t a = float_bits(std::fabs(x)), b = float_bits(std::fabs(y));
  const float lo = bits_float(std::min(a, b)), hi = bits_float(std::max(a, b));
  const uint32_t e = float_bits(hi) & 0xfe000000u;
  const float scale = bits_float(0x7e800000u - e);
  const float l = lo * scale, h = hi * scale;
  const float root = std::sqrt(std::fma(h, h, l * l));
  float r = lo != 0.0f ? bits_float(e | 0x800000u) * root : hi;
  if (lo == INFINITY) r = INFINITY;
  return gpu_nan_if_nan(r);
}

// powf(x, y) = 2^(y log2 |x|): log2 |x| as a head and tail (the exponent
// split at sqrt(1/2), u = 2 (m - 1) / (m + 1) from the hardware reciprocal,
// its error carried), times y in two parts, 2^fraction by a polynomial,
// scaled in two steps; then C's special cases in nvcc's order.
inline float cuda_powf(float x, float y) {
  const float a = std::fabs(x);
  const bool tiny = !(a >= 0x1p-126f);
  const float m0 = tiny ? a * 16777216.0f : a;
  const uint32_t e_bits = (float_bits(m0) - 0x3f3504f3u) & 0xff800000u;
  const float m = bits_float(float_bits(m0) - e_bits);
  const float e = std::fma(static_cast<float>(static_cast<int32_t>(e_bits)), 0x1p-23f, tiny ? -24.0f : 0.0f);
  const float f = m - 1.0f;
  const float inv = hardware_rcp(m + 1.0f);
  const float u = inv * (f + f);
  const float u2 = u * u;
  const float log2e = bits_float(0x3fb8aa3bu);
  const float head = std::fma(u, log2e, e);
  const float correction = inv * std::fma(f, -u, (f - u) + (f - u));
  const float p = u2 * horner(u2, {0x3a2c32e4u, 0x3b52e7dbu, 0x3c93bb73u, 0x3df6384fu});
  float tail = std::fma(u, log2e, e - head);
  tail = std::fma(correction, log2e, tail);
  tail = std::fma(u, bits_float(0x32a55e34u), tail);
  tail = std::fma(correction, p * 3.0f, tail);
  tail = std::fma(u, p, tail);
  const float l = head + tail;
  const float l_tail = tail - (l - head);
  const float t = y * l;
  const float t_tail = std::fma(y, l_tail, std::fma(y, l, -t));
  const float k = std::nearbyint(t);
  const float g = t_tail + (t - k);
  const float q = horner(g, {0x391fcb8eu, 0x3aaf85edu, 0x3c1d9856u, 0x3d6357bbu, 0x3e75fdecu, 0x3f317218u, 0x3f800000u});
  // NaN tested first: an ordered comparison with a NaN raises x86's invalid-operation
  // exception, trapped in device code (cuda_emu_fpe.h); the results are the same.
  const uint32_t low = !std::isnan(k) && k > 0.0f ? 0u : 0x83000000u;
  const uint32_t ki = static_cast<uint32_t>(gpu_float_to_int(k));
  float r = (q * bits_float(low + 0x7f000000u)) * bits_float((ki << 23) - low);
  if (!std::isnan(t) && std::fabs(t) > 152.0f) r = t < 0.0f ? 0.0f : INFINITY;
  // The special cases.
  if (x == 1.0f || y == 0.0f) return 1.0f;
  if (std::isnan(x) || std::isnan(y)) return bits_float(kGpuNanF);
  const float half_y = std::trunc(y * 0.5f);
  const float odd_test = y - (half_y + half_y);
  const bool odd = std::fabs(odd_test) == 1.0f;
  if (std::fabs(x) == INFINITY || x == 0.0f) {
    uint32_t bits = float_bits(x + x);
    if (y < 0.0f) bits ^= 0x7f800000u;
    if (!odd) bits &= 0x7fffffffu;
    return bits_float(bits);
  }
  if (std::fabs(y) == INFINITY && x == -1.0f) return 1.0f;
  if (x >= 0.0f) return gpu_nan_if_nan(r);
  if (odd) r = -r;
  return std::floor(y) != y ? bits_float(kGpuNanF) : gpu_nan_if_nan(r);
}

// rsqrtf (rsqrt.approx.f32, without ftz): the hardware reciprocal square
// root, a subnormal (or zero) scaled by 2^24 first and its result by 2^12.
inline float cuda_rsqrtf(float x) {
  const bool tiny = std::fabs(x) < 0x1p-126f;
  float r = hardware_rsqrt(tiny ? x * 16777216.0f : x);
  if (tiny) r = r * 4096.0f;
  return gpu_nan_if_nan(r);
}

// ---- the hyperbolic functions and the error function ------------------------------------
// tanhf, sinhf, coshf, expm1f, erff, erfcf, normcdff, asinhf, acoshf, atanhf
// and logbf as nvcc 13.0 compiles them for sm_90 (-O2), read from the SASS:
// on the hardware 2^x, reciprocal and reciprocal square root, and log1pf's
// own steps (cuda_log1pf above, which the SASS inlines unchanged).

// A flush to zero of the same sign (an .FTZ instruction's result).
inline float flush_subnormal(float v) { return std::fabs(v) < 0x1p-126f ? std::copysign(0.0f, v) : v; }

// tanhf: below 0.6 in magnitude an odd polynomial of x; above, with x's
// sign, 1 - 2 / (2^(2 |x| log2 e) + 1) from the hardware 2^x and
// reciprocal, or 1 from 9.01 on.
inline float cuda_tanhf(float x) {
  const float a = std::fabs(x);
  const float x2 = x * x;
  const float q = std::fma(x2, horner(x2, {0x3c80f082u, 0xbd563caeu, 0x3e085941u, 0xbeaaa9edu}), 0.0f);
  const float e = hardware_ex2(a * bits_float(0x4038aa3bu));
  const float t = std::fma(hardware_rcp(e + 1.0f), -2.0f, 1.0f);
  float v = std::copysign(a >= bits_float(0x41102cb4u) ? 1.0f : t, x);
  if (!(a >= bits_float(0x3f19999au))) v = std::fma(x, q, x);
  return gpu_nan_if_nan(v);
}

// sinhf and coshf share e^|x| / 4: 2^(j - 2), j = trunc(|x| log2 e) at most
// 126 (from the bits of j + 1.5 2^23 + 125 shifted into the exponent), times
// the hardware 2^x of (|x| - j log 2) log2 e, the remainder in two fmas.
inline float quarter_exp(float a) {
  const float log2e = bits_float(0x3fb8aa3bu);
  const float j0 = std::trunc(a * log2e);
  const float j = std::fabs(j0) > 126.0f ? std::copysign(126.0f, j0) : j0;
  float t = std::fma(j, bits_float(0xbf317218u), a);
  t = std::fma(j, bits_float(0x3102e308u), t);
  const float scale = bits_float(float_bits(gpu_nan_if_nan(j + 12583037.0f)) << 23);
  return scale * hardware_ex2(t * log2e);
}

// coshf: 2 y + (1 / y) / 8 for y = e^|x| / 4, the reciprocal the
// hardware's, its eighth flushed to zero below 2^-126 (FMUL.FTZ).
inline float cuda_coshf(float x) {
  const float y = quarter_exp(std::fabs(x));
  const float r = flush_subnormal(hardware_rcp(y) * 0.125f);
  return gpu_nan_if_nan(std::fma(y, 2.0f, r));
}

// sinhf: below 1 in magnitude an odd polynomial of x; above, coshf's steps
// with the reciprocal's term subtracted, and x's sign.
inline float cuda_sinhf(float x) {
  const float a = std::fabs(x);
  const float x2 = x * x;
  const float q = x2 * horner(x2, {0x363d0adau, 0x394fff49u, 0x3c08889au, 0x3e2aaaabu});
  const float y = quarter_exp(a);
  const float r = flush_subnormal(hardware_rcp(y) * -0.125f);
  float v = std::copysign(std::fma(y, 2.0f, r), x);
  if (!(a >= 1.0f)) v = std::fma(x, q, x);
  return gpu_nan_if_nan(v);
}

// expm1f: k = rint(x log2 e), 0 below 0.41 in magnitude (127 for 128, the
// result doubled), t = x - k log 2 in two fmas, e^t - 1 = t + t^2 P(t),
// then 2^k (the hardware 2^x, of k / 2 squared below -126) times it plus
// 2^k - 1; infinity above 128, -1 below -25, x itself for a zero.
inline float cuda_expm1f(float x) {
  const float k0 = std::nearbyint(x * bits_float(0x3fb8aa3bu));
  float k = !(std::fabs(x) < bits_float(0x3ed1eb85u)) ? k0 : 0.0f;
  const bool top = k == 128.0f;
  float t = std::fma(-k, bits_float(0x3f317200u), x);
  t = std::fma(-k, bits_float(0x35bfbe8eu), t);
  const float p = horner(t, {0x3ab5ebe6u, 0x3c095663u, 0x3d2aabe3u, 0x3e2aa9f6u, 0x3efffffeu});
  if (top) k = k + -1.0f;
  const bool low = k < -126.0f;
  float e = hardware_ex2(low ? k * 0.5f : k);
  const float u = std::fma(t, t * p, t);
  if (low) e = e * e;
  float r = std::fma(u, e, e + -1.0f);
  if (top) r = r + r;
  if (k > 128.0f) r = INFINITY;
  float v = k < -25.0f ? -1.0f : r;
  if (x == 0.0f) v = x + x;
  return gpu_nan_if_nan(v);
}

// erff: below 1.003 in magnitude x + x P(x^2); above, with x's sign,
// 1 - 2^(-|x| - |x| Q(|x|)) by the hardware 2^x.
inline float cuda_erff(float x) {
  const float a = std::fabs(x);
  const bool above = a >= bits_float(0x3f8060feu);
  const float p = above ? horner(a, {0x38eb4c3au, 0xbaae005bu, 0x3c09919fu, 0xbd24d99au, 0x3e235519u,
                                     0x3f69b4f9u, 0x3f210a14u})
                        : horner(x * x, {0x38b1e96au, 0xba574d20u, 0x3baad5eau, 0xbcdc1be7u, 0x3de718afu,
                                         0xbec093acu, 0x3e0375d3u});
  const float m = above ? -a : x;
  float v = std::fma(p, m, m);
  if (above) v = std::copysign(1.0f - hardware_ex2(v), x);
  return gpu_nan_if_nan(v);
}

// erfc(z) as erfcf and normcdff compute it: t = (|z| - 4) / (|z| + 4) from
// the hardware reciprocal refined once, a polynomial P(t), times
// 1 / (2 |z| + 1) refined once, times e^(-z^2): 2^j (j = trunc(-z^2 log2 e)
// at least -126) times the hardware 2^x of the remainder, times 1 plus
// z^2's rounding error; 0 above 10.055 in magnitude; 2 minus it for
// negative z.
inline float erfc_steps(float z) {
  const float log2e = bits_float(0x3fb8aa3bu);
  const float a = std::fabs(z);
  const float r4 = hardware_rcp(a + 4.0f);
  const float q = (a - 4.0f) * r4;
  const float z2 = z * z;
  float w = std::fma(q + 1.0f, -4.0f, a);
  w = std::fma(a, -q, w);
  const float t = std::fma(r4, w, q);
  const float p = horner(t, {0x3a69a091u, 0x3be6e05bu, 0xbc81fb4bu, 0x3d15373bu, 0xbd887c5au, 0x3dc021d5u,
                             0xbdced424u, 0x3d8b74deu, 0x3c7bf170u, 0xbe0ef8d4u, 0x3f9dd2c9u});
  const float j0 = std::trunc(z2 * -log2e);
  const float j = std::fabs(j0) > 126.0f ? std::copysign(126.0f, j0) : j0;
  const float r1 = hardware_rcp(std::fma(a, 2.0f, 1.0f));
  float g = std::fma(j, bits_float(0xbf317218u), -z2);
  const float z2_error = std::fma(-a, a, z2);
  g = std::fma(j, bits_float(0x3102e308u), g);
  const float scale = bits_float(float_bits(gpu_nan_if_nan(j + 12583039.0f)) << 23);
  const float e = scale * hardware_ex2(g * log2e);
  const float h = p * r1;
  float d = std::fma(a, h * -2.0f, p);
  d = d - h;
  d = std::fma(r1, d, h);
  float v = d * std::fma(e, z2_error, e);
  if (a > bits_float(0x4120e148u)) v = 0.0f;
  if (z < 0.0f) v = 2.0f - v;
  return v;
}

inline float cuda_erfcf(float x) { return gpu_nan_if_nan(erfc_steps(x)); }

// normcdff: x clamped to [-14.5, 14.5], z = -x / sqrt(2) as a head and a
// tail, erfc(z) / 2, below -1 corrected by the tail times erfc's
// derivative there (erfc(z) times -2 z).
inline float cuda_normcdff(float x) {
  const float c = std::fabs(x) > 14.5f ? std::copysign(14.5f, x) : x;
  const float h = c * bits_float(0xbf3504f3u);
  const float lo = std::fma(c, bits_float(0xb24fe77au), std::fma(c, bits_float(0xbf3504f3u), -h));
  const float z = h + lo;
  float v = erfc_steps(z);
  if (c < -1.0f) v = std::fma(lo + (h - z), v * (z * -2.0f), v);
  return gpu_nan_if_nan(v * 0.5f);
}

// asinhf: log1pf(|x| + x^2 / (sqrt(x^2 + 1) + 1)), the square root as
// (x^2 + 1) times its hardware reciprocal square root and the quotient by
// the hardware reciprocal; above 2^23 log1pf(|x|) + log 2; x's sign.
inline float cuda_asinhf(float x) {
  const float a = std::fabs(x);
  const bool huge = a > 8388608.0f;
  const float s = std::fma(x, x, 1.0f);
  const float d = hardware_rcp(std::fma(s, hardware_rsqrt(s), 1.0f));
  const float w = huge ? a : std::fma(a, a * d, a);
  float r = cuda_log1pf(w);
  if (huge) r = r + bits_float(0x3f317218u);
  return gpu_nan_if_nan(std::isnan(x) ? r : std::copysign(r, x));
}

// acoshf: log1pf((x - 1) + sqrt(x^2 - 1)), the square root from the hardware
// reciprocal square root refined once (0 for x^2 - 1 = 0); where x - 1 is
// above 2^23, or negative, or NaN, log1pf(x - 2) + log 2 (NaN below 1).
inline float cuda_acoshf(float x) {
  const float s = std::fma(x, x, -1.0f);
  const float rs = hardware_rsqrt(s);
  const float root0 = s * rs;
  const float half = rs * 0.5f;
  const float xm1 = x + -1.0f;
  float root = std::fma(half, std::fma(-root0, root0, s), root0);
  if (s == 0.0f) root = 0.0f;
  const bool far = float_bits(xm1) > 0x4b000000u;
  if (far) root = bits_float(0xbf800001u);
  float r = cuda_log1pf(xm1 + root);
  if (far) r = r + bits_float(0x3f317218u);
  return gpu_nan_if_nan(r);
}

// atanhf: log1pf(2 |x| / (1 - |x|)) / 2 with x's sign, the quotient by the
// hardware reciprocal; above 2^124 in magnitude log1pf(-2), NaN.
inline float cuda_atanhf(float x) {
  const float a = std::fabs(x);
  const float inv = hardware_rcp(1.0f - a);
  float w = a * (inv + inv);
  if (a > 0x1p124f) w = -2.0f;
  return gpu_nan_if_nan(std::copysign(0.5f, x) * cuda_log1pf(w));
}

// logbf: the exponent field less 127; for a subnormal the highest set bit's
// place less 149; -infinity for a zero, x * x for an infinity or NaN.
inline float cuda_logbf(float x) {
  const uint32_t bits = float_bits(std::fabs(x) + -0.0f);
  if (bits >= 0x800000u) {
    if (bits > 0x7f7fffffu) return gpu_nan_if_nan(x * x);
    return static_cast<float>(static_cast<int32_t>(bits >> 23) - 127);
  }
  if (x == 0.0f) return -INFINITY;
  int32_t top = 31;
  while ((bits >> top) == 0) --top;
  return static_cast<float>(top - 149);
}

// ---- the hardware's hyperbolic tangent --------------------------------------------
// tanh.approx.f32 (MUFU.TANH), measured on all 2^32 floats on an H100
// (tests/cuda/fitting/mufu_tanh.cu, mufu_tanh.txt): odd; x itself for a
// magnitude up to 2^-8 (zeros and subnormals too), 1 from 8 on (infinity
// too); NaN gives 0x7fffffff; in between, the runtime's breakpoint tables
// (cuda_emu_tables.cpp).
constexpr uint32_t kTanhFirstBreakpoint = 0x3b800001u;  // 2^-8 and one ulp
constexpr uint32_t kTanhOne = 0x41000000u;              // 8.0f
uint32_t mufu_tanh_between(uint32_t magnitude);
inline float hardware_tanh(float x) {
  const uint32_t bits = float_bits(x);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return bits_float(kGpuNanF);
  if (magnitude < kTanhFirstBreakpoint) return x;
  const uint32_t sign = bits & 0x80000000u;
  if (magnitude >= kTanhOne) return bits_float(sign | 0x3f800000u);
  return bits_float(sign | mufu_tanh_between(magnitude));
}

// ---- fminf, fmaxf, fmin and fmax as the GPU computes them ----------------------------
// tests/cuda/math_fminmax.cu, on the H200 (FMNMX in float; DSETP.MIN/MAX and
// a select in double): -0 is below +0; a NaN operand, quiet or signalling,
// gives the other operand; two NaNs give 0x7fffffff in float and the second
// operand, quieted, in double. glibc's differ on signed zeros, on a
// signalling NaN beside a number and on two quiet NaNs. NaNs are
// told by their bits, so a signalling one raises no invalid operation.
inline bool nan_bits(float f) { return (float_bits(f) & 0x7fffffffu) > 0x7f800000u; }
inline bool nan_bits(double d) { return (double_bits(d) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
// A double NaN with its quiet bit set, its sign and payload kept.
inline double quieted(double d) { return bits_double(double_bits(d) | 0x0008000000000000ull); }
inline float gpu_min_max(float a, float b, bool max) {
  const bool na = nan_bits(a), nb = nan_bits(b);
  if (na || nb) return na && nb ? bits_float(kGpuNanF) : (na ? b : a);
  if (a == b) return std::signbit(a) != max ? a : b;  // +0 and -0, or the same bits
  return (a < b) != max ? a : b;
}
inline double gpu_min_max(double a, double b, bool max) {
  const bool na = nan_bits(a), nb = nan_bits(b);
  if (na || nb) return na && nb ? quieted(b) : (na ? b : a);
  if (a == b) return std::signbit(a) != max ? a : b;
  return (a < b) != max ? a : b;
}
inline float gpu_fminf(float a, float b) { return gpu_min_max(a, b, false); }
inline float gpu_fmaxf(float a, float b) { return gpu_min_max(a, b, true); }
inline float gpu_fmin(float a, float b) { return gpu_min_max(a, b, false); }
inline float gpu_fmax(float a, float b) { return gpu_min_max(a, b, true); }
inline double gpu_fmin(double a, double b) { return gpu_min_max(a, b, false); }
inline double gpu_fmax(double a, double b) { return gpu_min_max(a, b, true); }
// Other arithmetic types as std::fmin promotes them (integers to double; long
// double, which device code does not have, stays the C library's).
template <class A, class B>
using gpu_if_arithmetic = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>::type;
template <class A, class B>
using gpu_unless_arithmetic = typename std::enable_if<!(std::is_arithmetic<A>::value && std::is_arithmetic<B>::value)>::type;
template <class A, class B>
inline auto gpu_promoted_min_max(A a, B b, bool max) {
  using R = decltype(std::fmin(a, b));
  if constexpr (std::is_same<R, long double>::value)
    return max ? std::fmax(a, b) : std::fmin(a, b);
  else
    return gpu_min_max(static_cast<R>(a), static_cast<R>(b), max);
}
template <class A, class B, class = gpu_if_arithmetic<A, B>>
inline auto gpu_fmin(A a, B b) {
  return gpu_promoted_min_max(a, b, false);
}
template <class A, class B, class = gpu_if_arithmetic<A, B>>
inline auto gpu_fmax(A a, B b) {
  return gpu_promoted_min_max(a, b, true);
}
// Anything else (a program's own fminf of float3s, found where the call is by
// its arguments' namespace) keeps the overload its name finds.
template <class A, class B, class = gpu_unless_arithmetic<A, B>>
inline auto gpu_fminf(const A& a, const B& b) -> decltype(fminf(a, b)) {
  return fminf(a, b);
}
template <class A, class B, class = gpu_unless_arithmetic<A, B>>
inline auto gpu_fmaxf(const A& a, const B& b) -> decltype(fmaxf(a, b)) {
  return fmaxf(a, b);
}
template <class A, class B, class = gpu_unless_arithmetic<A, B>>
inline auto gpu_fmin(const A& a, const B& b) -> decltype(fmin(a, b)) {
  return fmin(a, b);
}
template <class A, class B, class = gpu_unless_arithmetic<A, B>>
inline auto gpu_fmax(const A& a, const B& b) -> decltype(fmax(a, b)) {
  return fmax(a, b);
}
}  // namespace math
}  // namespace cuda_emu

#endif  // CUDA_EMU_MATH_H
