// cuda_bf16.h: part of the CPU emulation shim: __nv_bfloat16 and
// __nv_bfloat162.
//
// Generated from cuda_fp16.h's structure (same operations, bfloat16's 8
// exponent and 7 fraction bits): every conversion and operation rounds once,
// exactly, in the mode its name gives (cuda_emu_fp16_core.h), as the H200's
// instructions do; the math functions gave the exact value rounded once for
// all 65536 inputs on the H200 (tests/cuda/bf16_math.cu), and so do they
// here; a product added in the same expression is fused into one fma.
// Anything missing fails to compile, naming it.
#ifndef CUDA_EMU_CUDA_BF16_H
#define CUDA_EMU_CUDA_BF16_H
#pragma GCC system_header

#include <cuda_fp16.h>

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __nv_bfloat16(float f) : __x(::cuda_emu::fp::BF16::from_float(f, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(double d) : __x(::cuda_emu::fp::BF16::from_double(d, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(short v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(int v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(long v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(long long v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(unsigned short v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(unsigned v) : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(unsigned long v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  __nv_bfloat16(unsigned long long v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::kRN)) {}
  // A template, as __half's (cuda_fp16.h).
  template <class Raw, class = typename std::enable_if<std::is_same<Raw, __nv_bfloat16_raw>::value>::type>
  __nv_bfloat16& operator=(const Raw& r) {
    __x = r.x;
    return *this;
  }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
  operator float() const { return ::cuda_emu::fp::BF16::to_float(__x); }
  // Integer conversions truncate, as C casts do.
  explicit operator signed char() const { return ::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned char() const { return ::cuda_emu::fp::to_int<unsigned char, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator char() const { return static_cast<char>(::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ)); }
  explicit operator short() const { return ::cuda_emu::fp::to_int<short, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned short() const { return ::cuda_emu::fp::to_int<unsigned short, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator int() const { return ::cuda_emu::fp::to_int<int, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned() const { return ::cuda_emu::fp::to_int<unsigned, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator long long() const { return ::cuda_emu::fp::to_int<long long, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned long long() const { return ::cuda_emu::fp::to_int<unsigned long long, ::cuda_emu::fp::BF16>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator bool() const { return (__x & 0x7fff) != 0; }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  constexpr __nv_bfloat162(const __nv_bfloat162_raw& r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  // A template, as __half's (cuda_fp16.h).
  template <class Raw, class = typename std::enable_if<std::is_same<Raw, __nv_bfloat162_raw>::value>::type>
  __nv_bfloat162& operator=(const Raw& r) {
    x = __nv_bfloat16_raw{r.x};
    y = __nv_bfloat16_raw{r.y};
    return *this;
  }
  operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7f80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7fffU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7f7fU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3f80U)

namespace cuda_emu {
namespace fp {
inline __nv_bfloat16 mk_bf16(uint16_t b) { return __nv_bfloat16(__nv_bfloat16_raw{b}); }
}  // namespace fp
}  // namespace cuda_emu

// ---- bit casts ----------------------------------------------------------------
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(h.__x); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return ::cuda_emu::fp::mk_bf16(u); }
inline __nv_bfloat16 __short_as_bfloat16(short s) { return ::cuda_emu::fp::mk_bf16(static_cast<unsigned short>(s)); }

// ---- conversions ------------------------------------------------------------------
inline float __bfloat162float(__nv_bfloat16 h) { return ::cuda_emu::fp::BF16::to_float(h.__x); }
#define CUDA_EMU_H_MODES(X) X(rn, kRN) X(rz, kRZ) X(rd, kRD) X(ru, kRU)
#define CUDA_EMU_H_FROM(SUF, MODE)                                                                       \
  inline __nv_bfloat16 __float2bfloat16_##SUF(float f) {                                                            \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::BF16::from_float(f, ::cuda_emu::fp::MODE));           \
  }                                                                                                     \
  inline __nv_bfloat16 __int2bfloat16_##SUF(int v) {                                                                \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __nv_bfloat16 __short2bfloat16_##SUF(short v) {                                                            \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __nv_bfloat16 __ll2bfloat16_##SUF(long long v) {                                                           \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_signed<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __nv_bfloat16 __uint2bfloat16_##SUF(unsigned v) {                                                          \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __nv_bfloat16 __ushort2bfloat16_##SUF(unsigned short v) {                                                  \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __nv_bfloat16 __ull2bfloat16_##SUF(unsigned long long v) {                                                 \
    return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::BF16>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline int __bfloat162int_##SUF(__nv_bfloat16 h) { return ::cuda_emu::fp::to_int<int, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE); } \
  inline unsigned __bfloat162uint_##SUF(__nv_bfloat16 h) {                                                          \
    return ::cuda_emu::fp::to_int<unsigned, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE);          \
  }                                                                                                     \
  inline short __bfloat162short_##SUF(__nv_bfloat16 h) {                                                            \
    return ::cuda_emu::fp::to_int<short, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE);             \
  }                                                                                                     \
  inline unsigned short __bfloat162ushort_##SUF(__nv_bfloat16 h) {                                                  \
    return ::cuda_emu::fp::to_int<unsigned short, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE);    \
  }                                                                                                     \
  inline long long __bfloat162ll_##SUF(__nv_bfloat16 h) {                                                           \
    return ::cuda_emu::fp::to_int<long long, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE);         \
  }                                                                                                     \
  inline unsigned long long __bfloat162ull_##SUF(__nv_bfloat16 h) {                                                 \
    return ::cuda_emu::fp::to_int<unsigned long long, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::MODE); \
  }
CUDA_EMU_H_MODES(CUDA_EMU_H_FROM)
#undef CUDA_EMU_H_FROM
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
inline __nv_bfloat16 __double2bfloat16(double d) {
  return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::BF16::from_double(d, ::cuda_emu::fp::kRN));
}
inline signed char __bfloat162char_rz(__nv_bfloat16 h) { return ::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::kRZ); }
inline unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) {
  return ::cuda_emu::fp::to_int<unsigned char, ::cuda_emu::fp::BF16>(h.__x, ::cuda_emu::fp::kRZ);
}

// ---- pairs ------------------------------------------------------------------------------
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 p) { return p.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 p) { return p.y; }
inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 p) { return __nv_bfloat162(p.x, p.x); }
inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 p) { return __nv_bfloat162(p.y, p.y); }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
inline __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 p) { return __nv_bfloat162(p.y, p.x); }
inline float __low2float(__nv_bfloat162 p) { return __bfloat162float(p.x); }
inline float __high2float(__nv_bfloat162 p) { return __bfloat162float(p.y); }
inline float2 __bfloat1622float2(__nv_bfloat162 p) { return make_float2(__bfloat162float(p.x), __bfloat162float(p.y)); }
inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__float2bfloat16_rn(f), __float2bfloat16_rn(f)); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b)); }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }

// ---- math functions and division -------------------------------------------------------
// Measured on the H200 over all 65536 inputs (tests/cuda/bf16_math.cu): every
// function gives the exact value rounded once to bfloat16 (NaN results are
// the canonical 0x7fff), so that is what is computed here, through double.
namespace cuda_emu {
namespace fp {
inline uint16_t bf16_math(int fn, uint16_t x) { return math_exact<BF16>(fn, x); }
inline uint16_t bf16_div(uint16_t a, uint16_t b) { return BF16::div(a, b, kRN); }
}  // namespace fp
}  // namespace cuda_emu

// ---- arithmetic (the shared helpers sat01, relu, max_num... are in cuda_fp16.h) ----
#define CUDA_EMU_HB(NAME, EXPR)                                \
  inline __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) {                    \
    using namespace ::cuda_emu::fp;                           \
    uint16_t x = a.__x, y = b.__x;                            \
    return mk_bf16(EXPR);                                     \
  }
CUDA_EMU_HB(__hadd, BF16::add(x, y, kRN))
CUDA_EMU_HB(__hsub, BF16::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN))
CUDA_EMU_HB(__hdiv, ::cuda_emu::fp::bf16_div(x, y))
CUDA_EMU_HB(__hadd_rn, BF16::add(x, y, kRN))
CUDA_EMU_HB(__hsub_rn, BF16::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN))
CUDA_EMU_HB(__hmul_rn, BF16::mul(x, y, kRN))
CUDA_EMU_HB(__hadd_sat, sat01<BF16>(BF16::add(x, y, kRN)))
CUDA_EMU_HB(__hsub_sat, sat01<BF16>(BF16::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN)))
CUDA_EMU_HB(__hmul_sat, sat01<BF16>(BF16::mul(x, y, kRN)))
CUDA_EMU_HB(__hmax, max_num<BF16>(x, y))
CUDA_EMU_HB(__hmin, min_num<BF16>(x, y))
CUDA_EMU_HB(__hmax_nan, max_nan<BF16>(x, y))
CUDA_EMU_HB(__hmin_nan, min_nan<BF16>(x, y))
#undef CUDA_EMU_HB
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::BF16::fma(a.__x, b.__x, c.__x, ::cuda_emu::fp::kRN));
}
inline __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  using namespace ::cuda_emu::fp;
  return mk_bf16(sat01<BF16>(BF16::fma(a.__x, b.__x, c.__x, kRN)));
}
inline __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  using namespace ::cuda_emu::fp;
  return mk_bf16(relu<BF16>(BF16::fma(a.__x, b.__x, c.__x, kRN)));
}
// A NaN comes out as the canonical 0x7fff (measured on the H200).
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) {
  using namespace ::cuda_emu::fp;
  return mk_bf16(BF16::is_nan(a.__x) ? BF16::kNaN : static_cast<uint16_t>(a.__x ^ 0x8000));
}
inline __nv_bfloat16 __habs(__nv_bfloat16 a) {
  using namespace ::cuda_emu::fp;
  return mk_bf16(BF16::is_nan(a.__x) ? BF16::kNaN : static_cast<uint16_t>(a.__x & 0x7fff));
}

// ---- comparisons ----------------------------------------------------------------------------
#define CUDA_EMU_HC(NAME, TEST, UNORDERED)                          \
  inline bool NAME(__nv_bfloat16 a, __nv_bfloat16 b) {                            \
    int c = ::cuda_emu::fp::BF16::compare(a.__x, b.__x);           \
    if (c == 2) return UNORDERED;                                   \
    return TEST;                                                    \
  }
CUDA_EMU_HC(__heq, c == 0, false)
CUDA_EMU_HC(__hne, c != 0, false)
CUDA_EMU_HC(__hlt, c < 0, false)
CUDA_EMU_HC(__hle, c <= 0, false)
CUDA_EMU_HC(__hgt, c > 0, false)
CUDA_EMU_HC(__hge, c >= 0, false)
CUDA_EMU_HC(__hequ, c == 0, true)
CUDA_EMU_HC(__hneu, c != 0, true)
CUDA_EMU_HC(__hltu, c < 0, true)
CUDA_EMU_HC(__hleu, c <= 0, true)
CUDA_EMU_HC(__hgtu, c > 0, true)
CUDA_EMU_HC(__hgeu, c >= 0, true)
#undef CUDA_EMU_HC
inline bool __hisnan(__nv_bfloat16 a) { return ::cuda_emu::fp::BF16::is_nan(a.__x); }
inline int __hisinf(__nv_bfloat16 a) {
  if (!::cuda_emu::fp::BF16::is_inf(a.__x)) return 0;
  return (a.__x >> 15) ? -1 : 1;
}

#define CUDA_EMU_HM(NAME, FN)                                                        \
  inline __nv_bfloat16 NAME(__nv_bfloat16 a) { return ::cuda_emu::fp::mk_bf16(::cuda_emu::fp::bf16_math(FN, a.__x)); }
CUDA_EMU_HM(hsqrt, ::cuda_emu::fp::kSqrt)
CUDA_EMU_HM(hrsqrt, ::cuda_emu::fp::kRsqrt)
CUDA_EMU_HM(hrcp, ::cuda_emu::fp::kRcp)
CUDA_EMU_HM(hexp, ::cuda_emu::fp::kExp)
CUDA_EMU_HM(hexp2, ::cuda_emu::fp::kExp2)
CUDA_EMU_HM(hexp10, ::cuda_emu::fp::kExp10)
CUDA_EMU_HM(hlog, ::cuda_emu::fp::kLog)
CUDA_EMU_HM(hlog2, ::cuda_emu::fp::kLog2)
CUDA_EMU_HM(hlog10, ::cuda_emu::fp::kLog10)
CUDA_EMU_HM(hsin, ::cuda_emu::fp::kSin)
CUDA_EMU_HM(hcos, ::cuda_emu::fp::kCos)
CUDA_EMU_HM(htrunc, ::cuda_emu::fp::kTrunc)
CUDA_EMU_HM(hceil, ::cuda_emu::fp::kCeil)
CUDA_EMU_HM(hfloor, ::cuda_emu::fp::kFloor)
CUDA_EMU_HM(hrint, ::cuda_emu::fp::kRint)
#undef CUDA_EMU_HM

// ---- the __nv_bfloat162 forms: each lane on its own ------------------------------------------------
#define CUDA_EMU_H2U(NAME, ONE) \
  inline __nv_bfloat162 NAME(__nv_bfloat162 p) { return __nv_bfloat162(ONE(p.x), ONE(p.y)); }
#define CUDA_EMU_H2B(NAME, ONE) \
  inline __nv_bfloat162 NAME(__nv_bfloat162 p, __nv_bfloat162 q) { return __nv_bfloat162(ONE(p.x, q.x), ONE(p.y, q.y)); }
#define CUDA_EMU_H2T(NAME, ONE) \
  inline __nv_bfloat162 NAME(__nv_bfloat162 p, __nv_bfloat162 q, __nv_bfloat162 r) { return __nv_bfloat162(ONE(p.x, q.x, r.x), ONE(p.y, q.y, r.y)); }
CUDA_EMU_H2B(__hadd2, __hadd)
CUDA_EMU_H2B(__hsub2, __hsub)
CUDA_EMU_H2B(__h2div, __hdiv)
CUDA_EMU_H2B(__hadd2_rn, __hadd_rn)
CUDA_EMU_H2B(__hsub2_rn, __hsub_rn)
CUDA_EMU_H2B(__hmul2_rn, __hmul_rn)
CUDA_EMU_H2B(__hadd2_sat, __hadd_sat)
CUDA_EMU_H2B(__hsub2_sat, __hsub_sat)
CUDA_EMU_H2B(__hmul2_sat, __hmul_sat)
CUDA_EMU_H2B(__hmax2, __hmax)
CUDA_EMU_H2B(__hmin2, __hmin)
CUDA_EMU_H2B(__hmax2_nan, __hmax_nan)
CUDA_EMU_H2B(__hmin2_nan, __hmin_nan)
CUDA_EMU_H2T(__hfma2, __hfma)
CUDA_EMU_H2T(__hfma2_sat, __hfma_sat)
CUDA_EMU_H2T(__hfma2_relu, __hfma_relu)
CUDA_EMU_H2U(__hneg2, __hneg)
CUDA_EMU_H2U(__habs2, __habs)
CUDA_EMU_H2U(h2sqrt, hsqrt)
CUDA_EMU_H2U(h2rsqrt, hrsqrt)
CUDA_EMU_H2U(h2rcp, hrcp)
CUDA_EMU_H2U(h2exp, hexp)
CUDA_EMU_H2U(h2exp2, hexp2)
#if defined(CUDA_EMU_MATH_H) && defined(CUDA_EMU_PTX_H)
// htanh: the hardware tanh.approx.f32 of the float rounded to nearest, as
// cuda_bf16.hpp computes it; htanh_approx: the hardware's tanh.approx.bf16
// (cuda_emu_ptx.h, measured on an H100: tests/cuda/fitting/mufu_half_approx.cu).
// Device code only, as in CUDA: a host-only unit that includes this header
// first has neither.
inline __nv_bfloat16 htanh(__nv_bfloat16 a) {
  return __float2bfloat16_rn(::cuda_emu::math::hardware_tanh(__bfloat162float(a)));
}
inline __nv_bfloat16 htanh_approx(__nv_bfloat16 a) {
  return ::cuda_emu::fp::mk_bf16(::cuda_emu::ptx::tanh_approx_bf16(a.__x));
}
CUDA_EMU_H2U(h2tanh, htanh)
CUDA_EMU_H2U(h2tanh_approx, htanh_approx)
#endif
CUDA_EMU_H2U(h2exp10, hexp10)
CUDA_EMU_H2U(h2log, hlog)
CUDA_EMU_H2U(h2log2, hlog2)
CUDA_EMU_H2U(h2log10, hlog10)
CUDA_EMU_H2U(h2sin, hsin)
CUDA_EMU_H2U(h2cos, hcos)
CUDA_EMU_H2U(h2trunc, htrunc)
CUDA_EMU_H2U(h2ceil, hceil)
CUDA_EMU_H2U(h2floor, hfloor)
CUDA_EMU_H2U(h2rint, hrint)
#undef CUDA_EMU_H2U
#undef CUDA_EMU_H2B
#undef CUDA_EMU_H2T
// Lane-wise comparisons: 1.0 or 0.0 per lane; the __hb forms: both lanes.
#define CUDA_EMU_H2C(NAME, BNAME, ONE)                                                               \
  inline __nv_bfloat162 NAME(__nv_bfloat162 p, __nv_bfloat162 q) {                                                       \
    return __nv_bfloat162(::cuda_emu::fp::mk_bf16(ONE(p.x, q.x) ? 0x3f80 : 0), ::cuda_emu::fp::mk_bf16(ONE(p.y, q.y) ? 0x3f80 : 0)); \
  }                                                                                                 \
  inline bool BNAME(__nv_bfloat162 p, __nv_bfloat162 q) { return ONE(p.x, q.x) && ONE(p.y, q.y); }                \
  inline unsigned NAME##_mask(__nv_bfloat162 p, __nv_bfloat162 q) {                                               \
    return (ONE(p.x, q.x) ? 0xffffu : 0u) | (ONE(p.y, q.y) ? 0xffff0000u : 0u);                     \
  }
CUDA_EMU_H2C(__heq2, __hbeq2, __heq)
CUDA_EMU_H2C(__hne2, __hbne2, __hne)
CUDA_EMU_H2C(__hlt2, __hblt2, __hlt)
CUDA_EMU_H2C(__hle2, __hble2, __hle)
CUDA_EMU_H2C(__hgt2, __hbgt2, __hgt)
CUDA_EMU_H2C(__hge2, __hbge2, __hge)
CUDA_EMU_H2C(__hequ2, __hbequ2, __hequ)
CUDA_EMU_H2C(__hneu2, __hbneu2, __hneu)
CUDA_EMU_H2C(__hltu2, __hbltu2, __hltu)
CUDA_EMU_H2C(__hleu2, __hbleu2, __hleu)
CUDA_EMU_H2C(__hgtu2, __hbgtu2, __hgtu)
CUDA_EMU_H2C(__hgeu2, __hbgeu2, __hgeu)
#undef CUDA_EMU_H2C
inline __nv_bfloat162 __hisnan2(__nv_bfloat162 p) {
  return __nv_bfloat162(::cuda_emu::fp::mk_bf16(__hisnan(p.x) ? 0x3f80 : 0), ::cuda_emu::fp::mk_bf16(__hisnan(p.y) ? 0x3f80 : 0));
}
// (a.x + i a.y) * (b.x + i b.y) + (c.x + i c.y), each lane one fma.
inline __nv_bfloat162 __hcmadd(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  __nv_bfloat16 re = __hfma(a.x, b.x, c.x);
  __nv_bfloat16 im = __hfma(a.x, b.y, c.y);
  re = __hfma(__hneg(a.y), b.y, re);
  im = __hfma(a.y, b.x, im);
  return __nv_bfloat162(re, im);
}

// ---- contraction into fused multiply-adds -----------------------------------------------
// nvcc fuses a product that feeds an addition or a subtraction into one fma,
// rounded once (measured on the H200, tests/cuda/half_contraction.cu: a*b+c, c+a*b,
// a*b-c, c-a*b, s+=a*b, s-=a*b, __hadd(__hmul(a,b),c), __hsub(__hmul(a,b),c),
// a*b+c*d as fma(a,b,round(c*d)), and the pair forms; never the _rn forms).
// So a product written as a*b or __hmul(a,b) (__hmul2, and * on pairs) is
// kept here, unrounded, in a small type that an addition fuses and every
// other use rounds; a named variable keeps it where its uses are all
// additions (see cuda_fp16.h's Keep).
namespace cuda_emu {
namespace fp {
struct BF16Product {
  __nv_bfloat16 a, b;
  operator __nv_bfloat16() const { return mk_bf16(BF16::mul(a.__x, b.__x, kRN)); }
  operator float() const { return BF16::to_float(BF16::mul(a.__x, b.__x, kRN)); }
};
struct BF162Product {
  __nv_bfloat16 x, y;  // the rounded lanes, for code that reads them
  __nv_bfloat162 a, b;
  operator __nv_bfloat162() const { return __nv_bfloat162(x, y); }
};
template <>
struct Keep<__nv_bfloat16> {
  static BF16Product of(const BF16Product& p) { return p; }
  template <class U>
  static __nv_bfloat16 of(const U& x) { return static_cast<__nv_bfloat16>(x); }
};
template <>
struct Keep<__nv_bfloat162> {
  static BF162Product of(const BF162Product& p) { return p; }
  template <class U>
  static __nv_bfloat162 of(const U& x) { return static_cast<__nv_bfloat162>(x); }
};
}  // namespace fp
}  // namespace cuda_emu
inline ::cuda_emu::fp::BF16Product __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return ::cuda_emu::fp::BF16Product{a, b}; }
inline __nv_bfloat16 __hadd(const ::cuda_emu::fp::BF16Product& p, __nv_bfloat16 c) { return __hfma(p.a, p.b, c); }
inline __nv_bfloat16 __hadd(__nv_bfloat16 c, const ::cuda_emu::fp::BF16Product& p) { return __hfma(p.a, p.b, c); }
inline __nv_bfloat16 __hadd(const ::cuda_emu::fp::BF16Product& p, const ::cuda_emu::fp::BF16Product& q) { return __hfma(p.a, p.b, q); }
inline __nv_bfloat16 __hsub(const ::cuda_emu::fp::BF16Product& p, __nv_bfloat16 c) { return __hfma(p.a, p.b, __hneg(c)); }
inline __nv_bfloat16 __hsub(__nv_bfloat16 c, const ::cuda_emu::fp::BF16Product& p) { return __hfma(__hneg(p.a), p.b, c); }
inline __nv_bfloat16 __hsub(const ::cuda_emu::fp::BF16Product& p, const ::cuda_emu::fp::BF16Product& q) {
  return __hfma(p.a, p.b, __hneg(q));
}
inline ::cuda_emu::fp::BF162Product __hmul2(__nv_bfloat162 p, __nv_bfloat162 q) {
  return ::cuda_emu::fp::BF162Product{__nv_bfloat16(__hmul(p.x, q.x)), __nv_bfloat16(__hmul(p.y, q.y)), p, q};
}
inline __nv_bfloat162 __hadd2(const ::cuda_emu::fp::BF162Product& p, __nv_bfloat162 c) { return __hfma2(p.a, p.b, c); }
inline __nv_bfloat162 __hadd2(__nv_bfloat162 c, const ::cuda_emu::fp::BF162Product& p) { return __hfma2(p.a, p.b, c); }
inline __nv_bfloat162 __hadd2(const ::cuda_emu::fp::BF162Product& p, const ::cuda_emu::fp::BF162Product& q) { return __hfma2(p.a, p.b, q); }
inline __nv_bfloat162 __hsub2(const ::cuda_emu::fp::BF162Product& p, __nv_bfloat162 c) { return __hfma2(p.a, p.b, __hneg2(c)); }
inline __nv_bfloat162 __hsub2(__nv_bfloat162 c, const ::cuda_emu::fp::BF162Product& p) { return __hfma2(__hneg2(p.a), p.b, c); }
inline __nv_bfloat162 __hsub2(const ::cuda_emu::fp::BF162Product& p, const ::cuda_emu::fp::BF162Product& q) {
  return __hfma2(p.a, p.b, __hneg2(q));
}
inline ::cuda_emu::fp::BF16Product operator*(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hmul(a, b); }
inline ::cuda_emu::fp::BF16Product operator-(const ::cuda_emu::fp::BF16Product& p) { return __hmul(__hneg(p.a), p.b); }
inline __nv_bfloat16 operator+(const ::cuda_emu::fp::BF16Product& p, const __nv_bfloat16& c) { return __hadd(p, c); }
inline __nv_bfloat16 operator+(const __nv_bfloat16& c, const ::cuda_emu::fp::BF16Product& p) { return __hadd(c, p); }
inline __nv_bfloat16 operator+(const ::cuda_emu::fp::BF16Product& p, const ::cuda_emu::fp::BF16Product& q) { return __hadd(p, q); }
inline __nv_bfloat16 operator-(const ::cuda_emu::fp::BF16Product& p, const __nv_bfloat16& c) { return __hsub(p, c); }
inline __nv_bfloat16 operator-(const __nv_bfloat16& c, const ::cuda_emu::fp::BF16Product& p) { return __hsub(c, p); }
inline __nv_bfloat16 operator-(const ::cuda_emu::fp::BF16Product& p, const ::cuda_emu::fp::BF16Product& q) { return __hsub(p, q); }
inline __nv_bfloat16& operator+=(__nv_bfloat16& s, const ::cuda_emu::fp::BF16Product& p) { return s = __hadd(s, p); }
inline __nv_bfloat16& operator-=(__nv_bfloat16& s, const ::cuda_emu::fp::BF16Product& p) { return s = __hsub(s, p); }
inline ::cuda_emu::fp::BF162Product operator*(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hmul2(a, b); }
inline __nv_bfloat162 operator+(const ::cuda_emu::fp::BF162Product& p, const __nv_bfloat162& c) { return __hadd2(p, c); }
inline __nv_bfloat162 operator+(const __nv_bfloat162& c, const ::cuda_emu::fp::BF162Product& p) { return __hadd2(c, p); }
inline __nv_bfloat162 operator+(const ::cuda_emu::fp::BF162Product& p, const ::cuda_emu::fp::BF162Product& q) { return __hadd2(p, q); }
inline __nv_bfloat162 operator-(const ::cuda_emu::fp::BF162Product& p, const __nv_bfloat162& c) { return __hsub2(p, c); }
inline __nv_bfloat162 operator-(const __nv_bfloat162& c, const ::cuda_emu::fp::BF162Product& p) { return __hsub2(c, p); }
inline __nv_bfloat162& operator+=(__nv_bfloat162& s, const ::cuda_emu::fp::BF162Product& p) { return s = __hadd2(s, p); }
inline __nv_bfloat162& operator-=(__nv_bfloat162& s, const ::cuda_emu::fp::BF162Product& p) { return s = __hsub2(s, p); }

// ---- operators -------------------------------------------------------------------------------
inline __nv_bfloat16 operator+(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hadd(a, b); }
inline __nv_bfloat16 operator-(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hsub(a, b); }
inline __nv_bfloat16 operator/(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hdiv(a, b); }
inline __nv_bfloat16& operator+=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hadd(a, b); }
inline __nv_bfloat16& operator-=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hsub(a, b); }
inline __nv_bfloat16& operator*=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hmul(a, b); }
inline __nv_bfloat16& operator/=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hdiv(a, b); }
inline __nv_bfloat16 operator+(const __nv_bfloat16& a) { return a; }
inline __nv_bfloat16 operator-(const __nv_bfloat16& a) { return __hneg(a); }
inline __nv_bfloat16& operator++(__nv_bfloat16& a) { return a = __hadd(a, __ushort_as_bfloat16(0x3f80)); }
inline __nv_bfloat16& operator--(__nv_bfloat16& a) { return a = __hsub(a, __ushort_as_bfloat16(0x3f80)); }
inline __nv_bfloat16 operator++(__nv_bfloat16& a, int) { __nv_bfloat16 o = a; ++a; return o; }
inline __nv_bfloat16 operator--(__nv_bfloat16& a, int) { __nv_bfloat16 o = a; --a; return o; }
inline bool operator==(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __heq(a, b); }
inline bool operator!=(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hneu(a, b); }
inline bool operator<(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hlt(a, b); }
inline bool operator<=(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hle(a, b); }
inline bool operator>(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hgt(a, b); }
inline bool operator>=(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hge(a, b); }
inline __nv_bfloat162 operator+(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hadd2(a, b); }
inline __nv_bfloat162 operator-(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hsub2(a, b); }
inline __nv_bfloat162 operator/(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __h2div(a, b); }
inline __nv_bfloat162& operator+=(__nv_bfloat162& a, const __nv_bfloat162& b) { return a = __hadd2(a, b); }
inline __nv_bfloat162& operator-=(__nv_bfloat162& a, const __nv_bfloat162& b) { return a = __hsub2(a, b); }
inline __nv_bfloat162& operator*=(__nv_bfloat162& a, const __nv_bfloat162& b) { return a = __hmul2(a, b); }
inline __nv_bfloat162& operator/=(__nv_bfloat162& a, const __nv_bfloat162& b) { return a = __h2div(a, b); }
inline __nv_bfloat162 operator+(const __nv_bfloat162& a) { return a; }
inline __nv_bfloat162 operator-(const __nv_bfloat162& a) { return __hneg2(a); }
inline bool operator==(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hbeq2(a, b); }
inline bool operator!=(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hbneu2(a, b); }
inline bool operator<(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hblt2(a, b); }
inline bool operator<=(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hble2(a, b); }
inline bool operator>(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hbgt2(a, b); }
inline bool operator>=(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __hbge2(a, b); }

// ---- atomics (compare-and-swap loops: blocks run on several OS threads at once) ----------
CUDA_EMU_ATOMIC_ATTRS __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 val) {
  CUDA_EMU_ATOMIC_MEET(address);
  return ::cuda_emu::atomic_update(address, [val](__nv_bfloat16 old) { return __hadd(old, val); });
}
CUDA_EMU_ATOMIC_ATTRS __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 val) {
  CUDA_EMU_ATOMIC_MEET(address);
  return ::cuda_emu::atomic_update(address, [val](__nv_bfloat162 old) { return __hadd2(old, val); });
}

// The bfloat16 products a parameter can take (see cuda_fp16.h's Addend).
namespace cuda_emu {
namespace fp {
template <>
struct ProductOf<__nv_bfloat16> {
  using type = BF16Product;
  static BF16Product of(__nv_bfloat16 v) { return BF16Product{v, mk_bf16(0x3f80)}; }
};
template <>
struct ProductOf<__nv_bfloat162> {
  using type = BF162Product;
  static BF162Product of(__nv_bfloat162 v) {
    return BF162Product{v.x, v.y, v, __nv_bfloat162(mk_bf16(0x3f80), mk_bf16(0x3f80))};
  }
};
}  // namespace fp
}  // namespace cuda_emu

#endif  // CUDA_EMU_CUDA_BF16_H
