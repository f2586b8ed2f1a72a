// cuda_emu_rounding_core.h: add, multiply, divide, square root and fma of
// floats and doubles rounded once in a named direction
// (cuda_emu::rounding), for the CUDA math API's intrinsics with a rounding
// direction in their name (cuda_emu_rounding.h) and for the steps of CUDA's
// math functions that round that way (cuda_emu_math.h). Plain C++, with an
// include guard rather than #pragma once: tests/cuda/math/sweep.cu includes
// it from the repository while the emulator's copy is included too.
//
// Hand-written from IEEE 754 (each result is the exact value rounded once in
// the named direction) and the published error-free transformations
// (Knuth's TwoSum, the exact fma residual of a product, of a correctly
// rounded quotient and of a correctly rounded square root, Shewchuk's
// expansion sums), checked against the H200 by tests/cuda/directed_rounding.cu.
// The host's rounding mode is never changed (g++ does not keep one across
// optimisations): each operation is computed rounded to nearest, the sign of
// its exact error is found, and the result is stepped one unit (nextafter)
// when the direction asks for it. Overflow gives infinity or the largest
// finite value as the direction says, exact zero sums are -0 when rounding
// down, subnormal results are kept (the H200 does not flush them without
// -ftz), and a NaN result is the GPU's canonical NaN.
//
// Why the signs are exact: every operation is reduced to doubles in their
// normal range (frexp/ldexp scale by powers of two, exactly), where the
// residuals are representable: V = 2^e (hi + lo) with hi the double nearest
// V / 2^e and lo's sign known. The target-type result r scaled by 2^-e is c0;
// V - r has the sign of hi - c0 when they differ (c0 lies on a grid no finer
// than hi's, so |hi - c0| > |lo|), else the sign of lo.
#ifndef CUDA_EMU_ROUNDING_CORE_H
#define CUDA_EMU_ROUNDING_CORE_H

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cuda_emu {
namespace rounding {

enum Mode { kRN, kRZ, kRD, kRU };

// Knuth's TwoSum: s + e == a + b exactly (no overflow).
inline void two_sum(double a, double b, double* s, double* e) {
  double x = a + b;
  double bb = x - a;
  *e = (a - (x - bb)) + (b - bb);
  *s = x;
}

inline int sign_of(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

// The sign of the exact sum of n doubles: Shewchuk's Grow-Expansion keeps a
// non-overlapping expansion, whose largest non-zero component has the sign
// of the whole.
inline int sign_of_sum(const double* t, int n) {
  double e[8];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    double q = t[i];
    int k = 0;
    for (int j = 0; j < m; ++j) {
      double s, h;
      two_sum(q, e[j], &s, &h);
      if (h != 0) e[k++] = h;
      q = s;
    }
    if (q != 0) e[k++] = q;
    m = k;
  }
  return m ? sign_of(e[m - 1]) : 0;
}

template <class T>
inline T canonical_nan();
// The GPU's NaN results (measured: tests/cuda/directed_rounding.cu).
template <>
inline float canonical_nan<float>() {
  uint32_t u = 0x7fffffffu;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Float NaN results are the GPU's canonical NaN; double ones are what the
// host gives (the H200 did the same: an operand's NaN, quieted, or
// 0xfff8000000000000 for an invalid operation).
inline float finish(float r) { return r != r ? canonical_nan<float>() : r; }
inline double finish(double r) { return r; }

// r rounded to nearest, s the sign of (exact - r): the result in mode m.
template <class T>
inline T step(T r, int s, Mode m) {
  const T inf = std::numeric_limits<T>::infinity();
  if (s == 0) return r;
  switch (m) {
    case kRU: return s > 0 ? std::nextafter(r, inf) : r;
    case kRD: return s < 0 ? std::nextafter(r, -inf) : r;
    case kRZ:
      if ((r > 0 && s < 0) || (r < 0 && s > 0)) return std::nextafter(r, T(0));
      return r;
    default: return r;
  }
}

// A finite exact value past the largest finite one (r is +-inf).
template <class T>
inline T overflow(bool negative, Mode m) {
  const T inf = std::numeric_limits<T>::infinity(), big = std::numeric_limits<T>::max();
  if (!negative) return (m == kRN || m == kRU) ? inf : big;
  return (m == kRN || m == kRD) ? -inf : -big;
}

// V - r's sign, from V = 2^e (hi + lo), hi nearest V / 2^e, lo's sign ls.
template <class T>
inline int error_sign(T r, int e, double hi, int ls) {
  double c0 = std::ldexp(static_cast<double>(r), -e);
  if (hi != c0) return hi > c0 ? 1 : -1;
  return ls;
}

template <class T>
inline T add(T a, T b, Mode m) {
  T r = a + b;
  if (m == kRN) return finish(r);
  if (!std::isfinite(a) || !std::isfinite(b)) return finish(r);
  if (std::isinf(r)) return overflow<T>(r < 0, m);
  if (r == 0) {
    // Exact zero (addition never underflows): -0 rounding down unless both
    // are +0; otherwise what round-to-nearest gives.
    if (m == kRD) return (std::signbit(a) || std::signbit(b)) ? T(-0.0) : T(0.0);
    return r;
  }
  double hi, lo;
  two_sum(static_cast<double>(a), static_cast<double>(b), &hi, &lo);
  return step(r, error_sign(r, 0, hi, sign_of(lo)), m);
}

template <class T>
inline T mul(T a, T b, Mode m) {
  T r = a * b;
  if (m == kRN) return finish(r);
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return finish(r);
  if (std::isinf(r)) return overflow<T>(r < 0, m);
  int ea, eb;
  double ma = std::frexp(static_cast<double>(a), &ea), mb = std::frexp(static_cast<double>(b), &eb);
  double p = ma * mb;
  double pe = std::fma(ma, mb, -p);
  return step(r, error_sign(r, ea + eb, p, sign_of(pe)), m);
}

template <class T>
inline T div(T a, T b, Mode m) {
  T r = a / b;
  if (m == kRN) return finish(r);
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return finish(r);
  if (std::isinf(r)) return overflow<T>(r < 0, m);
  int ea, eb;
  double ma = std::frexp(static_cast<double>(a), &ea), mb = std::frexp(static_cast<double>(b), &eb);
  double q = ma / mb;
  double rem = std::fma(-q, mb, ma);  // exact: ma - q mb
  return step(r, error_sign(r, ea - eb, q, sign_of(rem) * sign_of(mb)), m);
}

template <class T>
inline T sqrt_(T a, Mode m) {
  T r = std::sqrt(a);
  if (m == kRN) return finish(r);
  if (!std::isfinite(a) || a <= 0) return finish(r);  // +-0, negatives (NaN), inf
  int ea;
  double ma = std::frexp(static_cast<double>(a), &ea);
  if (ea & 1) {
    ma *= 2;
    ea -= 1;
  }
  double s = std::sqrt(ma);
  double res = std::fma(-s, s, ma);  // exact: ma - s^2
  return step(r, error_sign(r, ea / 2, s, sign_of(res)), m);
}

template <class T>
inline T fma_(T a, T b, T c, Mode m) {
  T r = std::fma(a, b, c);
  if (m == kRN) return finish(r);
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return finish(r);
  if (std::isinf(r)) return overflow<T>(r < 0, m);
  if (a == 0 || b == 0) {
    // A zero product: the sum of two zeros, or c exactly.
    if (c != 0) return c;
    return add<T>(std::signbit(a) != std::signbit(b) ? T(-0.0) : T(0.0), c, m);
  }
  if (c == 0) return mul(a, b, m);
  int ea, eb;
  double ma = std::frexp(static_cast<double>(a), &ea), mb = std::frexp(static_cast<double>(b), &eb);
  int ep = ea + eb;
  int ec = std::ilogb(static_cast<double>(c));
  int s;
  if (ec - ep > 200) {
    // The product is far below half an ulp of c: r == c.
    s = sign_of(ma) * sign_of(mb);
  } else {
    double p = ma * mb;
    double pe = std::fma(ma, mb, -p);
    double rs = std::ldexp(static_cast<double>(r), -ep);
    if (ep - ec > 200) {
      // c is far below the grid of ab - r: it decides only a tie of zero.
      double t[3] = {p, pe, -rs};
      s = sign_of_sum(t, 3);
      if (s == 0) s = sign_of(static_cast<double>(c));
    } else {
      double t[4] = {p, pe, std::ldexp(static_cast<double>(c), -ep), -rs};
      s = sign_of_sum(t, 4);
    }
  }
  if (s == 0 && r == 0) return m == kRD ? T(-0.0) : T(0.0);  // exact zero sum
  return step(r, s, m);
}

}  // namespace rounding
}  // namespace cuda_emu

#endif  // CUDA_EMU_ROUNDING_CORE_H
