// cuda_emu_fp16_core.h: part of the CPU emulation shim (shared by
// cuda_fp16.h and cuda_bf16.h).
//
// Exact rounding for the 16-bit formats: every value is turned into an exact
// (sign, integer magnitude, power of two, sticky) form and rounded once to
// the target format in the requested IEEE 754 mode. That is what the GPU's
// conversion and arithmetic instructions do (cvt.{rn,rz,rm,rp}.f16/bf16,
// add/sub/mul/fma.rn.f16/bf16), so results are bit for bit the H200's; the
// probes tests/cuda/half_*.cu and bf16_*.cu check them against the device.
// Written from IEEE 754-2008 (binary16; bfloat16 is binary32's exponent with
// 7 fraction bits), not from any vendor header.
#ifndef CUDA_EMU_FP16_CORE_H
#define CUDA_EMU_FP16_CORE_H
#pragma GCC system_header

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace cuda_emu {
namespace fp {

enum Mode { kRN, kRZ, kRD, kRU };
typedef unsigned __int128 u128;

inline int top_bit(u128 v) {
  unsigned long long hi = static_cast<unsigned long long>(v >> 64);
  if (hi) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<unsigned long long>(v));
}

// A 16-bit format: M fraction bits, E exponent bits; QNAN is the NaN the
// GPU's instructions produce.
template <int M, int E, uint16_t QNAN>
struct Format {
  static constexpr int kM = M;
  static constexpr int kBias = (1 << (E - 1)) - 1;
  static constexpr uint16_t kOne = static_cast<uint16_t>(kBias << M);
  static constexpr int kEmin = 1 - kBias;
  static constexpr uint16_t kExpMask = static_cast<uint16_t>(((1u << E) - 1) << M);
  static constexpr uint16_t kFracMask = static_cast<uint16_t>((1u << M) - 1);
  static constexpr uint16_t kInf = kExpMask;
  static constexpr uint16_t kMax = static_cast<uint16_t>(kExpMask - 1);
  static constexpr uint16_t kNaN = QNAN;

  static bool is_nan(uint16_t b) { return (b & kExpMask) == kExpMask && (b & kFracMask); }
  static bool is_inf(uint16_t b) { return (b & 0x7fff) == kInf; }
  static bool is_zero(uint16_t b) { return (b & 0x7fff) == 0; }

  // Rounds (-1)^neg * mag * 2^exp once; with sticky, the value lies strictly
  // between mag and mag + 1 units of 2^exp. mag may be 0 (with sticky false): a zero of that sign.
  static uint16_t round(bool neg, u128 mag, int exp, bool sticky, Mode mode) {
    uint16_t sign = neg ? 0x8000 : 0;
    if (mag == 0 && !sticky) return sign;
    if (mag == 0) {  // only a sticky bit: below everything
      mag = 1;
      exp -= 200;
      sticky = false;
    }
    int p = top_bit(mag);
    int lead = p + exp;  // value in [2^lead, 2^(lead+1))
    int ulp = (lead < kEmin ? kEmin : lead) - M;
    u128 q;
    bool up = false;
    if (ulp <= exp) {
      // Exact at this precision. (Callers give a sticky bit only with a
      // magnitude far finer than the result's ulp, so it never lands here
      // for round-to-nearest; the directed modes still see it.)
      q = mag << (exp - ulp);
      if (sticky && ((mode == kRU && !neg) || (mode == kRD && neg))) up = true;
    } else {
      int s = ulp - exp;
      u128 rem;
      if (s >= 128) {
        q = 0;
        rem = mag;
      } else {
        q = mag >> s;
        rem = mag - (q << s);
      }
      bool inexact = rem != 0 || sticky;
      switch (mode) {
        case kRN: {
          if (s > 128) {
            up = false;
          } else {
            u128 half = static_cast<u128>(1) << (s - 1);
            up = rem > half || (rem == half && (sticky || (q & 1)));
          }
          break;
        }
        case kRZ: up = false; break;
        case kRD: up = neg && inexact; break;
        case kRU: up = !neg && inexact; break;
      }
    }
    if (up) ++q;
    if (q >> (M + 1)) {
      q >>= 1;
      ++ulp;
    }
    int bexp = (q >> M) ? ulp + M + kBias : 0;
    if (bexp >= (1 << E) - 1) {
      bool to_inf = mode == kRN || (mode == kRU && !neg) || (mode == kRD && neg);
      return static_cast<uint16_t>(sign | (to_inf ? kInf : kMax));
    }
    return static_cast<uint16_t>(sign | (bexp << M) | (static_cast<unsigned>(q) & kFracMask));
  }

  // Splits a finite value into sign, integer magnitude and exponent.
  static void split(uint16_t b, bool* neg, u128* mag, int* exp) {
    *neg = b >> 15;
    int be = (b & kExpMask) >> M;
    unsigned f = b & kFracMask;
    if (be == 0) {
      *mag = f;
      *exp = kEmin - M;
    } else {
      *mag = f | (1u << M);
      *exp = be - kBias - M;
    }
  }
  static float to_float(uint16_t b) {
    if (is_nan(b)) {
      // Measured on the H200: half NaNs become 0x7fffffff; bfloat16 is the
      // upper half of a float, so its NaNs (signalling ones too) keep their
      // bits.
      uint32_t u = M == 7 ? static_cast<uint32_t>(b) << 16 : 0x7fffffffu;
      float f;
      memcpy(&f, &u, 4);
      return f;
    }
    if (is_inf(b)) return (b >> 15) ? -INFINITY : INFINITY;
    bool neg;
    u128 mag;
    int exp;
    split(b, &neg, &mag, &exp);
    float v = std::ldexp(static_cast<float>(static_cast<unsigned>(mag)), exp);
    return neg ? -v : v;
  }
  static uint16_t from_double(double d, Mode mode) {
    uint64_t u;
    memcpy(&u, &d, 8);
    bool neg = u >> 63;
    int be = static_cast<int>((u >> 52) & 0x7ff);
    uint64_t f = u & 0xfffffffffffffull;
    if (be == 0x7ff) {
      if (f) return nan_from_double(u);
      return static_cast<uint16_t>((neg ? 0x8000 : 0) | kInf);
    }
    if (be == 0) return round(neg, f, -1074, false, mode);
    return round(neg, f | (1ull << 52), be - 1075, false, mode);
  }
  static uint16_t from_float(float x, Mode mode) {
    uint32_t u;
    memcpy(&u, &x, 4);
    bool neg = u >> 31;
    int be = static_cast<int>((u >> 23) & 0xff);
    uint32_t f = u & 0x7fffffu;
    if (be == 0xff) {
      if (f) return nan_from_float(u);
      return static_cast<uint16_t>((neg ? 0x8000 : 0) | kInf);
    }
    if (be == 0) return round(neg, f, -149, false, mode);
    return round(neg, f | (1u << 23), be - 150, false, mode);
  }
  static uint16_t from_int(bool neg, unsigned long long mag, Mode mode) {
    return round(neg, mag, 0, false, mode);
  }
  // NaN inputs to a conversion, as measured on the H200
  // (tests/cuda/*_conversions): a float NaN gives the canonical NaN; a
  // double NaN keeps its sign and the top bits of its payload, made quiet.
  static uint16_t nan_from_float(uint32_t) { return kNaN; }
  static uint16_t nan_from_double(uint64_t u) {
    uint16_t sign = static_cast<uint16_t>((u >> 63) << 15);
    uint16_t payload = static_cast<uint16_t>((u & 0xfffffffffffffull) >> (52 - M));
    return static_cast<uint16_t>(sign | kInf | (1u << (M - 1)) | payload);
  }

  // ---- arithmetic, exact then rounded once --------------------------------
  static uint16_t add(uint16_t a, uint16_t b, Mode mode) {
    if (is_nan(a) || is_nan(b)) return kNaN;
    if (is_inf(a) || is_inf(b)) {
      if (is_inf(a) && is_inf(b) && ((a ^ b) & 0x8000)) return kNaN;
      return is_inf(a) ? a : b;
    }
    bool na, nb;
    u128 ma, mb;
    int ea, eb;
    split(a, &na, &ma, &ea);
    split(b, &nb, &mb, &eb);
    return add_exact(na, ma, ea, nb, mb, eb, false, mode);
  }
  // (-1)^na ma 2^ea + (-1)^nb mb 2^eb, both finite and exact, rounded once.
  // Zero results follow IEEE 754: +0 unless both are -0 or rounding down.
  static uint16_t add_exact(bool na, u128 ma, int ea, bool nb, u128 mb, int eb, bool b_sticky,
                            Mode mode) {
    if (ma == 0 && mb == 0) {
      bool neg = (na && nb) || (na != nb && mode == kRD);
      return neg ? 0x8000 : 0;
    }
    if (ma == 0) return round(nb, mb, eb, b_sticky, mode);
    if (mb == 0) return round(na, ma, ea, false, mode);
    // Align on the smaller exponent; a far smaller operand only matters as a
    // sticky bit below the larger one's guard bits.
    if (eb > ea) {
      std::swap(na, nb);
      std::swap(ma, mb);
      std::swap(ea, eb);
    }
    int d = ea - eb;
    int room = 120 - top_bit(ma);  // how far ma may move left
    if (d <= room) {
      ma <<= d;
      ea = eb;
    } else {
      // mb is far below: move ma left by `room` bits, and mb becomes a
      // nonzero amount smaller than one unit there.
      ma <<= room;
      ea -= room;
      mb = 0;
      b_sticky = true;
    }
    if (mb == 0 && b_sticky) {
      if (na == nb) return round(na, ma, ea, true, mode);
      // ma - tiny = (ma - 1) + (1 - tiny)
      return round(na, ma - 1, ea, true, mode);
    }
    if (na == nb) return round(na, ma + mb, ea, false, mode);
    if (ma == mb) return mode == kRD ? 0x8000 : 0;
    if (ma > mb) return round(na, ma - mb, ea, false, mode);
    return round(nb, mb - ma, ea, false, mode);
  }
  static uint16_t mul(uint16_t a, uint16_t b, Mode mode) {
    if (is_nan(a) || is_nan(b)) return kNaN;
    bool neg = (a ^ b) >> 15;
    if (is_inf(a) || is_inf(b)) {
      if (is_zero(a) || is_zero(b)) return kNaN;
      return static_cast<uint16_t>((neg ? 0x8000 : 0) | kInf);
    }
    bool na, nb;
    u128 ma, mb;
    int ea, eb;
    split(a, &na, &ma, &ea);
    split(b, &nb, &mb, &eb);
    return round(neg, ma * mb, ea + eb, false, mode);
  }
  static uint16_t div(uint16_t a, uint16_t b, Mode mode) {
    if (is_nan(a) || is_nan(b)) return kNaN;
    bool neg = (a ^ b) >> 15;
    uint16_t sign = neg ? 0x8000 : 0;
    if (is_inf(a)) return is_inf(b) ? kNaN : static_cast<uint16_t>(sign | kInf);
    if (is_inf(b)) return sign;
    if (is_zero(b)) return is_zero(a) ? kNaN : static_cast<uint16_t>(sign | kInf);
    bool na, nb;
    u128 ma, mb;
    int ea, eb;
    split(a, &na, &ma, &ea);
    split(b, &nb, &mb, &eb);
    if (ma == 0) return sign;
    const int k = 60;
    u128 num = ma << k;
    u128 q = num / mb;
    bool sticky = q * mb != num;
    return round(neg, q, ea - eb - k, sticky, mode);
  }
  static uint16_t fma(uint16_t a, uint16_t b, uint16_t c, Mode mode) {
    if (is_nan(a) || is_nan(b) || is_nan(c)) return kNaN;
    bool np = (a ^ b) >> 15;
    if (is_inf(a) || is_inf(b)) {
      if (is_zero(a) || is_zero(b)) return kNaN;
      if (is_inf(c) && ((c >> 15) != np)) return kNaN;
      return static_cast<uint16_t>((np ? 0x8000 : 0) | kInf);
    }
    if (is_inf(c)) return c;
    bool na, nb, nc;
    u128 ma, mb, mc;
    int ea, eb, ec;
    split(a, &na, &ma, &ea);
    split(b, &nb, &mb, &eb);
    split(c, &nc, &mc, &ec);
    u128 mp = ma * mb;
    if (mp == 0 && mc == 0) {
      bool neg = (np && nc) || (np != nc && mode == kRD);
      return neg ? 0x8000 : 0;
    }
    return add_exact(np, mp, ea + eb, nc, mc, ec, false, mode);
  }
  static uint16_t sqrt_rn(uint16_t a) {
    if (is_nan(a)) return kNaN;
    if (is_zero(a)) return a;
    if (a >> 15) return kNaN;
    if (is_inf(a)) return a;
    bool n;
    u128 m;
    int e;
    split(a, &n, &m, &e);
    // sqrt(m 2^e): make e even and m large, then an integer square root.
    int shift = 100 - top_bit(m);
    if ((e - shift) & 1) ++shift;
    u128 big = m << shift;
    int ee = e - shift;
    u128 r = static_cast<u128>(std::sqrt(static_cast<double>(big)));
    while (r * r > big) --r;
    while ((r + 1) * (r + 1) <= big) ++r;
    return round(false, r, ee / 2, r * r != big, kRN);
  }
  static int compare(uint16_t a, uint16_t b) {  // -1, 0, 1; 2 unordered
    if (is_nan(a) || is_nan(b)) return 2;
    float x = to_float(a), y = to_float(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
};

typedef Format<10, 5, 0x7fff> Half;
typedef Format<7, 8, 0x7fff> BF16;

// Integer results of a value in a mode, saturated, NaN to 0 (the cvt.rni
// and friends of the GPU; measured: a NaN converted to a 64-bit integer,
// signed or not, gives 0x8000000000000000).
template <class I, class F>
inline I to_int(uint16_t b, Mode mode) {
  if (F::is_nan(b)) {
    if (sizeof(I) == 8) return static_cast<I>(0x8000000000000000ull);
    return 0;
  }
  double v = F::to_float(b);
  switch (mode) {
    case kRN: v = std::nearbyint(v); break;
    case kRZ: v = std::trunc(v); break;
    case kRD: v = std::floor(v); break;
    case kRU: v = std::ceil(v); break;
  }
  if (v <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

template <class F>
inline uint16_t from_signed(long long v, Mode mode) {
  unsigned long long mag = v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  return F::from_int(v < 0, mag, mode);
}
template <class F>
inline uint16_t from_unsigned(unsigned long long v, Mode mode) {
  return F::from_int(false, v, mode);
}

// The math functions of the 16-bit headers, as the exact value (a double
// computation) rounded once to the format.
enum MathFn {
  kSqrt, kRsqrt, kRcp, kExp, kExp2, kExp10, kLog, kLog2, kLog10, kSin, kCos,
  kTrunc, kCeil, kFloor, kRint, kNumMathFns
};
template <class F>
inline uint16_t math_exact(int fn, uint16_t x) {
  if (F::is_nan(x)) return F::kNaN;
  if (fn == kSqrt) return F::sqrt_rn(x);
  double v = F::to_float(x);
  double r = 0;
  switch (fn) {
    case kRsqrt: r = 1.0 / std::sqrt(v); break;
    case kRcp: r = 1.0 / v; break;
    case kExp: r = std::exp(v); break;
    case kExp2: r = std::exp2(v); break;
    case kExp10: r = ::exp10(v); break;
    case kLog: r = std::log(v); break;
    case kLog2: r = std::log2(v); break;
    case kLog10: r = std::log10(v); break;
    case kSin: r = std::sin(v); break;
    case kCos: r = std::cos(v); break;
    case kTrunc: r = std::trunc(v); break;
    case kCeil: r = std::ceil(v); break;
    case kFloor: r = std::floor(v); break;
    case kRint: r = std::nearbyint(v); break;
  }
  if (r != r) return F::kNaN;  // the GPU's functions give the canonical NaN
  return F::from_double(r, kRN);
}

}  // namespace fp
}  // namespace cuda_emu

#endif  // CUDA_EMU_FP16_CORE_H
