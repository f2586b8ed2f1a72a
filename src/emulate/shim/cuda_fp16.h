// cuda_fp16.h: part of the CPU emulation shim: __half and __half2.
//
// The types are 16-bit values (2 and 4 bytes, as on the GPU) that warp
// shuffles and memcpy move unchanged. Every conversion and every operation
// rounds once, exactly, in the mode its name gives (cuda_emu_fp16_core.h),
// as the H200's instructions do; hexp, hsin and the other functions gave the
// exact value rounded once for all 65536 inputs on the H200, and so do they
// here. A product added in the same expression is fused into one fma, as
// nvcc does (see "contraction" below). The function set follows the CUDA
// Math API's half-precision section; anything missing fails to compile,
// naming the function.
#ifndef CUDA_EMU_CUDA_FP16_H
#define CUDA_EMU_CUDA_FP16_H
#pragma GCC system_header

#include <cuda_emu_fp16_core.h>

#include <type_traits>

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  constexpr __half(const __half_raw& r) : __x(r.x) {}
  __half(float f) : __x(::cuda_emu::fp::Half::from_float(f, ::cuda_emu::fp::kRN)) {}
  __half(double d) : __x(::cuda_emu::fp::Half::from_double(d, ::cuda_emu::fp::kRN)) {}
  __half(short v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(int v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(long v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(long long v) : __x(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(unsigned short v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(unsigned v) : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(unsigned long v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  __half(unsigned long long v)
      : __x(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::kRN)) {}
  // A template, so that `v = {}` takes the copy assignment (a zero value), as
  // nvcc does, rather than being ambiguous with this one.
  template <class Raw, class = typename std::enable_if<std::is_same<Raw, __half_raw>::value>::type>
  __half& operator=(const Raw& r) {
    __x = r.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }
  operator float() const { return ::cuda_emu::fp::Half::to_float(__x); }
  // Integer conversions truncate, as C casts do.
  explicit operator signed char() const { return ::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned char() const { return ::cuda_emu::fp::to_int<unsigned char, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator char() const { return static_cast<char>(::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ)); }
  explicit operator short() const { return ::cuda_emu::fp::to_int<short, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned short() const { return ::cuda_emu::fp::to_int<unsigned short, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator int() const { return ::cuda_emu::fp::to_int<int, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned() const { return ::cuda_emu::fp::to_int<unsigned, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator long long() const { return ::cuda_emu::fp::to_int<long long, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator unsigned long long() const { return ::cuda_emu::fp::to_int<unsigned long long, ::cuda_emu::fp::Half>(__x, ::cuda_emu::fp::kRZ); }
  explicit operator bool() const { return (__x & 0x7fff) != 0; }
};

struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  constexpr __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  // A template, as __half's.
  template <class Raw, class = typename std::enable_if<std::is_same<Raw, __half2_raw>::value>::type>
  __half2& operator=(const Raw& r) {
    x = __half_raw{r.x};
    y = __half_raw{r.y};
    return *this;
  }
  operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00U)

namespace cuda_emu {
namespace fp {
inline __half mk_half(uint16_t b) { return __half(__half_raw{b}); }
}  // namespace fp
// Texel formats for cudaCreateChannelDesc<__half>() and <__half2>() (cuda_texture.h).
template <>
struct ChannelOf<__half> {
  static constexpr int bits = 16, count = 1;
  static constexpr cudaChannelFormatKind kind = cudaChannelFormatKindFloat;
};
template <>
struct ChannelOf<__half2> {
  static constexpr int bits = 16, count = 2;
  static constexpr cudaChannelFormatKind kind = cudaChannelFormatKindFloat;
};
}  // namespace cuda_emu

// ---- bit casts ----------------------------------------------------------------
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short u) { return ::cuda_emu::fp::mk_half(u); }
inline __half __short_as_half(short s) { return ::cuda_emu::fp::mk_half(static_cast<unsigned short>(s)); }

// ---- conversions ------------------------------------------------------------------
inline float __half2float(__half h) { return ::cuda_emu::fp::Half::to_float(h.__x); }
#define CUDA_EMU_H_MODES(X) X(rn, kRN) X(rz, kRZ) X(rd, kRD) X(ru, kRU)
#define CUDA_EMU_H_FROM(SUF, MODE)                                                                       \
  inline __half __float2half_##SUF(float f) {                                                            \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::Half::from_float(f, ::cuda_emu::fp::MODE));           \
  }                                                                                                     \
  inline __half __int2half_##SUF(int v) {                                                                \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __half __short2half_##SUF(short v) {                                                            \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __half __ll2half_##SUF(long long v) {                                                           \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_signed<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __half __uint2half_##SUF(unsigned v) {                                                          \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __half __ushort2half_##SUF(unsigned short v) {                                                  \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline __half __ull2half_##SUF(unsigned long long v) {                                                 \
    return ::cuda_emu::fp::mk_half(::cuda_emu::fp::from_unsigned<::cuda_emu::fp::Half>(v, ::cuda_emu::fp::MODE)); \
  }                                                                                                     \
  inline int __half2int_##SUF(__half h) { return ::cuda_emu::fp::to_int<int, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE); } \
  inline unsigned __half2uint_##SUF(__half h) {                                                          \
    return ::cuda_emu::fp::to_int<unsigned, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE);          \
  }                                                                                                     \
  inline short __half2short_##SUF(__half h) {                                                            \
    return ::cuda_emu::fp::to_int<short, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE);             \
  }                                                                                                     \
  inline unsigned short __half2ushort_##SUF(__half h) {                                                  \
    return ::cuda_emu::fp::to_int<unsigned short, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE);    \
  }                                                                                                     \
  inline long long __half2ll_##SUF(__half h) {                                                           \
    return ::cuda_emu::fp::to_int<long long, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE);         \
  }                                                                                                     \
  inline unsigned long long __half2ull_##SUF(__half h) {                                                 \
    return ::cuda_emu::fp::to_int<unsigned long long, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::MODE); \
  }
CUDA_EMU_H_MODES(CUDA_EMU_H_FROM)
#undef CUDA_EMU_H_FROM
inline __half __float2half(float f) { return __float2half_rn(f); }
inline __half __double2half(double d) {
  return ::cuda_emu::fp::mk_half(::cuda_emu::fp::Half::from_double(d, ::cuda_emu::fp::kRN));
}
inline signed char __half2char_rz(__half h) { return ::cuda_emu::fp::to_int<signed char, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::kRZ); }
inline unsigned char __half2uchar_rz(__half h) {
  return ::cuda_emu::fp::to_int<unsigned char, ::cuda_emu::fp::Half>(h.__x, ::cuda_emu::fp::kRZ);
}

// ---- pairs ------------------------------------------------------------------------------
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half __low2half(__half2 p) { return p.x; }
inline __half __high2half(__half2 p) { return p.y; }
inline __half2 __low2half2(__half2 p) { return __half2(p.x, p.x); }
inline __half2 __high2half2(__half2 p) { return __half2(p.y, p.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __lowhigh2highlow(__half2 p) { return __half2(p.y, p.x); }
inline float __low2float(__half2 p) { return __half2float(p.x); }
inline float __high2float(__half2 p) { return __half2float(p.y); }
inline float2 __half22float2(__half2 p) { return make_float2(__half2float(p.x), __half2float(p.y)); }
inline __half2 __float2half2_rn(float f) { return __half2(__float2half_rn(f), __float2half_rn(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half_rn(a), __float2half_rn(b)); }
inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }

// ---- math functions and division -------------------------------------------------------
// Measured on the H200 over all 65536 inputs (tests/cuda/half_math.cu): every
// function gives the exact value rounded once to half (NaN results are
// the canonical 0x7fff), so that is what is computed here, through double.
namespace cuda_emu {
namespace fp {
inline uint16_t half_math(int fn, uint16_t x) { return math_exact<Half>(fn, x); }
inline uint16_t half_div(uint16_t a, uint16_t b) { return Half::div(a, b, kRN); }
}  // namespace fp
}  // namespace cuda_emu

// ---- arithmetic ---------------------------------------------------------------------------
namespace cuda_emu {
namespace fp {
template <class F>
inline uint16_t sat01(uint16_t b) {  // clamp to [0, 1]; NaN gives +0
  if (F::is_nan(b)) return 0;
  if (b >> 15) return 0;
  return b > F::kOne ? F::kOne : b;
}
template <class F>
inline uint16_t relu(uint16_t b) {
  if (F::is_nan(b)) return F::kNaN;
  return (b >> 15) ? 0 : b;
}
template <class F>
inline uint16_t max_num(uint16_t a, uint16_t b) {
  if (F::is_nan(a) && F::is_nan(b)) return F::kNaN;
  if (F::is_nan(a)) return b;
  if (F::is_nan(b)) return a;
  int c = F::compare(a, b);
  if (c == 0) return (a >> 15) ? b : a;  // +0 over -0
  return c > 0 ? a : b;
}
template <class F>
inline uint16_t min_num(uint16_t a, uint16_t b) {
  if (F::is_nan(a) && F::is_nan(b)) return F::kNaN;
  if (F::is_nan(a)) return b;
  if (F::is_nan(b)) return a;
  int c = F::compare(a, b);
  if (c == 0) return (a >> 15) ? a : b;  // -0 under +0
  return c < 0 ? a : b;
}
template <class F>
inline uint16_t max_nan(uint16_t a, uint16_t b) {
  if (F::is_nan(a) || F::is_nan(b)) return F::kNaN;
  return max_num<F>(a, b);
}
template <class F>
inline uint16_t min_nan(uint16_t a, uint16_t b) {
  if (F::is_nan(a) || F::is_nan(b)) return F::kNaN;
  return min_num<F>(a, b);
}
}  // namespace fp
}  // namespace cuda_emu

#define CUDA_EMU_HB(NAME, EXPR)                                \
  inline __half NAME(__half a, __half b) {                    \
    using namespace ::cuda_emu::fp;                           \
    uint16_t x = a.__x, y = b.__x;                            \
    return mk_half(EXPR);                                     \
  }
CUDA_EMU_HB(__hadd, Half::add(x, y, kRN))
CUDA_EMU_HB(__hsub, Half::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN))
CUDA_EMU_HB(__hdiv, ::cuda_emu::fp::half_div(x, y))
CUDA_EMU_HB(__hadd_rn, Half::add(x, y, kRN))
CUDA_EMU_HB(__hsub_rn, Half::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN))
CUDA_EMU_HB(__hmul_rn, Half::mul(x, y, kRN))
CUDA_EMU_HB(__hadd_sat, sat01<Half>(Half::add(x, y, kRN)))
CUDA_EMU_HB(__hsub_sat, sat01<Half>(Half::add(x, static_cast<uint16_t>(y ^ 0x8000), kRN)))
CUDA_EMU_HB(__hmul_sat, sat01<Half>(Half::mul(x, y, kRN)))
CUDA_EMU_HB(__hmax, max_num<Half>(x, y))
CUDA_EMU_HB(__hmin, min_num<Half>(x, y))
CUDA_EMU_HB(__hmax_nan, max_nan<Half>(x, y))
CUDA_EMU_HB(__hmin_nan, min_nan<Half>(x, y))
#undef CUDA_EMU_HB
inline __half __hfma(__half a, __half b, __half c) {
  return ::cuda_emu::fp::mk_half(::cuda_emu::fp::Half::fma(a.__x, b.__x, c.__x, ::cuda_emu::fp::kRN));
}
inline __half __hfma_sat(__half a, __half b, __half c) {
  using namespace ::cuda_emu::fp;
  return mk_half(sat01<Half>(Half::fma(a.__x, b.__x, c.__x, kRN)));
}
inline __half __hfma_relu(__half a, __half b, __half c) {
  using namespace ::cuda_emu::fp;
  return mk_half(relu<Half>(Half::fma(a.__x, b.__x, c.__x, kRN)));
}
// A NaN comes out as the canonical 0x7fff (measured on the H200).
inline __half __hneg(__half a) {
  using namespace ::cuda_emu::fp;
  return mk_half(Half::is_nan(a.__x) ? Half::kNaN : static_cast<uint16_t>(a.__x ^ 0x8000));
}
inline __half __habs(__half a) {
  using namespace ::cuda_emu::fp;
  return mk_half(Half::is_nan(a.__x) ? Half::kNaN : static_cast<uint16_t>(a.__x & 0x7fff));
}

// ---- comparisons ----------------------------------------------------------------------------
#define CUDA_EMU_HC(NAME, TEST, UNORDERED)                          \
  inline bool NAME(__half a, __half b) {                            \
    int c = ::cuda_emu::fp::Half::compare(a.__x, b.__x);           \
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
inline bool __hisnan(__half a) { return ::cuda_emu::fp::Half::is_nan(a.__x); }
inline int __hisinf(__half a) {
  if (!::cuda_emu::fp::Half::is_inf(a.__x)) return 0;
  return (a.__x >> 15) ? -1 : 1;
}

#define CUDA_EMU_HM(NAME, FN)                                                        \
  inline __half NAME(__half a) { return ::cuda_emu::fp::mk_half(::cuda_emu::fp::half_math(FN, a.__x)); }
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

// ---- the __half2 forms: each lane on its own ------------------------------------------------
#define CUDA_EMU_H2U(NAME, ONE) \
  inline __half2 NAME(__half2 p) { return __half2(ONE(p.x), ONE(p.y)); }
#define CUDA_EMU_H2B(NAME, ONE) \
  inline __half2 NAME(__half2 p, __half2 q) { return __half2(ONE(p.x, q.x), ONE(p.y, q.y)); }
#define CUDA_EMU_H2T(NAME, ONE) \
  inline __half2 NAME(__half2 p, __half2 q, __half2 r) { return __half2(ONE(p.x, q.x, r.x), ONE(p.y, q.y, r.y)); }
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
// htanh: CUDA's tanhf of the float rounded to nearest, as cuda_fp16.hpp
// computes it; htanh_approx: the hardware's tanh.approx.f16 (cuda_emu_ptx.h,
// measured on an H100: tests/cuda/fitting/mufu_half_approx.cu). Device code
// only, as in CUDA: a host-only unit that includes this header first has
// neither.
inline __half htanh(__half a) { return __float2half_rn(::cuda_emu::math::cuda_tanhf(__half2float(a))); }
inline __half htanh_approx(__half a) { return ::cuda_emu::fp::mk_half(::cuda_emu::ptx::tanh_approx_f16(a.__x)); }
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
  inline __half2 NAME(__half2 p, __half2 q) {                                                       \
    return __half2(::cuda_emu::fp::mk_half(ONE(p.x, q.x) ? 0x3c00 : 0), ::cuda_emu::fp::mk_half(ONE(p.y, q.y) ? 0x3c00 : 0)); \
  }                                                                                                 \
  inline bool BNAME(__half2 p, __half2 q) { return ONE(p.x, q.x) && ONE(p.y, q.y); }                \
  inline unsigned NAME##_mask(__half2 p, __half2 q) {                                               \
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
inline __half2 __hisnan2(__half2 p) {
  return __half2(::cuda_emu::fp::mk_half(__hisnan(p.x) ? 0x3c00 : 0), ::cuda_emu::fp::mk_half(__hisnan(p.y) ? 0x3c00 : 0));
}
// (a.x + i a.y) * (b.x + i b.y) + (c.x + i c.y), each lane one fma.
inline __half2 __hcmadd(__half2 a, __half2 b, __half2 c) {
  __half re = __hfma(a.x, b.x, c.x);
  __half im = __hfma(a.x, b.y, c.y);
  re = __hfma(__hneg(a.y), b.y, re);
  im = __hfma(a.y, b.x, im);
  return __half2(re, im);
}

// ---- contraction into fused multiply-adds -----------------------------------------------
// nvcc fuses a product that feeds an addition or a subtraction into one fma,
// rounded once (measured on the H200, tests/cuda/half_contraction.cu: a*b+c, c+a*b,
// a*b-c, c-a*b, s+=a*b, s-=a*b, __hadd(__hmul(a,b),c), __hsub(__hmul(a,b),c),
// a*b+c*d as fma(a,b,round(c*d)), and the pair forms; never the _rn forms).
// So a product written as a*b or __hmul(a,b) (__hmul2, and * on pairs) is
// kept here, unrounded, in a small type that an addition fuses and every
// other use rounds. A product first stored in a named variable whose only
// uses are additions is still fused on the GPU; the rewriter declares such
// a variable `auto name = Keep<__half>::of(product)` (src/emulate/half_products.rs),
// so it keeps the product type, and a parameter that only adds Addend<T>
// (below) (tests/cuda/half_contraction_variable.cu, half_contraction_named.cu).
namespace cuda_emu {
namespace fp {
// Keep<T>::of(x): a half-precision product as it is, anything else as a T
// (what the declaration `T name = x;` would have made of it).
template <class T>
struct Keep {
  template <class U>
  static T of(const U& x) { return static_cast<T>(x); }
};
struct HalfProduct {
  __half a, b;
  operator __half() const { return mk_half(Half::mul(a.__x, b.__x, kRN)); }
  operator float() const { return Half::to_float(Half::mul(a.__x, b.__x, kRN)); }
};
struct Half2Product {
  __half x, y;  // the rounded lanes, for code that reads them
  __half2 a, b;
  operator __half2() const { return __half2(x, y); }
};
template <>
struct Keep<__half> {
  static HalfProduct of(const HalfProduct& p) { return p; }
  template <class U>
  static __half of(const U& x) { return static_cast<__half>(x); }
};
template <>
struct Keep<__half2> {
  static Half2Product of(const Half2Product& p) { return p; }
  template <class U>
  static __half2 of(const U& x) { return static_cast<__half2>(x); }
};
}  // namespace fp
}  // namespace cuda_emu
inline ::cuda_emu::fp::HalfProduct __hmul(__half a, __half b) { return ::cuda_emu::fp::HalfProduct{a, b}; }
inline __half __hadd(const ::cuda_emu::fp::HalfProduct& p, __half c) { return __hfma(p.a, p.b, c); }
inline __half __hadd(__half c, const ::cuda_emu::fp::HalfProduct& p) { return __hfma(p.a, p.b, c); }
inline __half __hadd(const ::cuda_emu::fp::HalfProduct& p, const ::cuda_emu::fp::HalfProduct& q) { return __hfma(p.a, p.b, q); }
inline __half __hsub(const ::cuda_emu::fp::HalfProduct& p, __half c) { return __hfma(p.a, p.b, __hneg(c)); }
inline __half __hsub(__half c, const ::cuda_emu::fp::HalfProduct& p) { return __hfma(__hneg(p.a), p.b, c); }
inline __half __hsub(const ::cuda_emu::fp::HalfProduct& p, const ::cuda_emu::fp::HalfProduct& q) {
  return __hfma(p.a, p.b, __hneg(q));
}
inline ::cuda_emu::fp::Half2Product __hmul2(__half2 p, __half2 q) {
  return ::cuda_emu::fp::Half2Product{__half(__hmul(p.x, q.x)), __half(__hmul(p.y, q.y)), p, q};
}
inline __half2 __hadd2(const ::cuda_emu::fp::Half2Product& p, __half2 c) { return __hfma2(p.a, p.b, c); }
inline __half2 __hadd2(__half2 c, const ::cuda_emu::fp::Half2Product& p) { return __hfma2(p.a, p.b, c); }
inline __half2 __hadd2(const ::cuda_emu::fp::Half2Product& p, const ::cuda_emu::fp::Half2Product& q) { return __hfma2(p.a, p.b, q); }
inline __half2 __hsub2(const ::cuda_emu::fp::Half2Product& p, __half2 c) { return __hfma2(p.a, p.b, __hneg2(c)); }
inline __half2 __hsub2(__half2 c, const ::cuda_emu::fp::Half2Product& p) { return __hfma2(__hneg2(p.a), p.b, c); }
inline __half2 __hsub2(const ::cuda_emu::fp::Half2Product& p, const ::cuda_emu::fp::Half2Product& q) {
  return __hfma2(p.a, p.b, __hneg2(q));
}
inline ::cuda_emu::fp::HalfProduct operator*(const __half& a, const __half& b) { return __hmul(a, b); }
inline ::cuda_emu::fp::HalfProduct operator-(const ::cuda_emu::fp::HalfProduct& p) { return __hmul(__hneg(p.a), p.b); }
inline __half operator+(const ::cuda_emu::fp::HalfProduct& p, const __half& c) { return __hadd(p, c); }
inline __half operator+(const __half& c, const ::cuda_emu::fp::HalfProduct& p) { return __hadd(c, p); }
inline __half operator+(const ::cuda_emu::fp::HalfProduct& p, const ::cuda_emu::fp::HalfProduct& q) { return __hadd(p, q); }
inline __half operator-(const ::cuda_emu::fp::HalfProduct& p, const __half& c) { return __hsub(p, c); }
inline __half operator-(const __half& c, const ::cuda_emu::fp::HalfProduct& p) { return __hsub(c, p); }
inline __half operator-(const ::cuda_emu::fp::HalfProduct& p, const ::cuda_emu::fp::HalfProduct& q) { return __hsub(p, q); }
inline __half& operator+=(__half& s, const ::cuda_emu::fp::HalfProduct& p) { return s = __hadd(s, p); }
inline __half& operator-=(__half& s, const ::cuda_emu::fp::HalfProduct& p) { return s = __hsub(s, p); }
inline ::cuda_emu::fp::Half2Product operator*(const __half2& a, const __half2& b) { return __hmul2(a, b); }
inline __half2 operator+(const ::cuda_emu::fp::Half2Product& p, const __half2& c) { return __hadd2(p, c); }
inline __half2 operator+(const __half2& c, const ::cuda_emu::fp::Half2Product& p) { return __hadd2(c, p); }
inline __half2 operator+(const ::cuda_emu::fp::Half2Product& p, const ::cuda_emu::fp::Half2Product& q) { return __hadd2(p, q); }
inline __half2 operator-(const ::cuda_emu::fp::Half2Product& p, const __half2& c) { return __hsub2(p, c); }
inline __half2 operator-(const __half2& c, const ::cuda_emu::fp::Half2Product& p) { return __hsub2(c, p); }
inline __half2& operator+=(__half2& s, const ::cuda_emu::fp::Half2Product& p) { return s = __hadd2(s, p); }
inline __half2& operator-=(__half2& s, const ::cuda_emu::fp::Half2Product& p) { return s = __hsub2(s, p); }

// ---- operators -------------------------------------------------------------------------------
inline __half operator+(const __half& a, const __half& b) { return __hadd(a, b); }
inline __half operator-(const __half& a, const __half& b) { return __hsub(a, b); }
inline __half operator/(const __half& a, const __half& b) { return __hdiv(a, b); }
inline __half& operator+=(__half& a, const __half& b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, const __half& b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, const __half& b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, const __half& b) { return a = __hdiv(a, b); }
inline __half operator+(const __half& a) { return a; }
inline __half operator-(const __half& a) { return __hneg(a); }
inline __half& operator++(__half& a) { return a = __hadd(a, __ushort_as_half(0x3c00)); }
inline __half& operator--(__half& a) { return a = __hsub(a, __ushort_as_half(0x3c00)); }
inline __half operator++(__half& a, int) { __half o = a; ++a; return o; }
inline __half operator--(__half& a, int) { __half o = a; --a; return o; }
inline bool operator==(const __half& a, const __half& b) { return __heq(a, b); }
inline bool operator!=(const __half& a, const __half& b) { return __hneu(a, b); }
inline bool operator<(const __half& a, const __half& b) { return __hlt(a, b); }
inline bool operator<=(const __half& a, const __half& b) { return __hle(a, b); }
inline bool operator>(const __half& a, const __half& b) { return __hgt(a, b); }
inline bool operator>=(const __half& a, const __half& b) { return __hge(a, b); }
inline __half2 operator+(const __half2& a, const __half2& b) { return __hadd2(a, b); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __hsub2(a, b); }
inline __half2 operator/(const __half2& a, const __half2& b) { return __h2div(a, b); }
inline __half2& operator+=(__half2& a, const __half2& b) { return a = __hadd2(a, b); }
inline __half2& operator-=(__half2& a, const __half2& b) { return a = __hsub2(a, b); }
inline __half2& operator*=(__half2& a, const __half2& b) { return a = __hmul2(a, b); }
inline __half2& operator/=(__half2& a, const __half2& b) { return a = __h2div(a, b); }
inline __half2 operator+(const __half2& a) { return a; }
inline __half2 operator-(const __half2& a) { return __hneg2(a); }
inline bool operator==(const __half2& a, const __half2& b) { return __hbeq2(a, b); }
inline bool operator!=(const __half2& a, const __half2& b) { return __hbneu2(a, b); }
inline bool operator<(const __half2& a, const __half2& b) { return __hblt2(a, b); }
inline bool operator<=(const __half2& a, const __half2& b) { return __hble2(a, b); }
inline bool operator>(const __half2& a, const __half2& b) { return __hbgt2(a, b); }
inline bool operator>=(const __half2& a, const __half2& b) { return __hbge2(a, b); }

// ---- atomics (compare-and-swap loops: blocks run on several OS threads at once) ----------
CUDA_EMU_ATOMIC_ATTRS __half atomicAdd(__half* address, __half val) {
  CUDA_EMU_ATOMIC_MEET(address);
  return ::cuda_emu::atomic_update(address, [val](__half old) { return __hadd(old, val); });
}
CUDA_EMU_ATOMIC_ATTRS __half2 atomicAdd(__half2* address, __half2 val) {
  CUDA_EMU_ATOMIC_MEET(address);
  return ::cuda_emu::atomic_update(address, [val](__half2 old) { return __hadd2(old, val); });
}

// ---- a parameter that adds a product (src/emulate/half_products.rs) ---------------------
// A by-value half-precision parameter of the program's own __device__
// function whose only uses are additions is declared Addend<T>: it holds a
// product unrounded (or a value v as the product v * 1, which adds to the
// same correctly rounded sum), so that a product passed to the function is
// fused into its additions, as nvcc fuses it once the call is inlined
// (tests/cuda/half_contraction_named.cu).
namespace cuda_emu {
namespace fp {
template <class T>
struct Same {
  using type = T;
};
template <class T>
struct ProductOf;
template <>
struct ProductOf<__half> {
  using type = HalfProduct;
  static HalfProduct of(__half v) { return HalfProduct{v, mk_half(0x3c00)}; }
};
template <>
struct ProductOf<__half2> {
  using type = Half2Product;
  static Half2Product of(__half2 v) { return Half2Product{v.x, v.y, v, __half2(mk_half(0x3c00), mk_half(0x3c00))}; }
};
template <class T>
struct Addend {
  using Product = typename ProductOf<T>::type;
  Product p;
  bool product;  // false: a value v, held as v * 1
  Addend(const Product& q) : p(q), product(true) {}
  template <class U, class = typename std::enable_if<!std::is_same<typename std::decay<U>::type, Product>::value &&
                                                     !std::is_same<typename std::decay<U>::type, Addend>::value>::type>
  Addend(const U& v) : p(ProductOf<T>::of(static_cast<T>(v))), product(false) {}
  T value() const { return static_cast<T>(p); }  // exact for a value
};
// Which side is fused follows the H200's a*b + c*d = fma(a, b, round(c*d)):
// the left product, or the right one beside a value.
template <class T>
T operator+(const Addend<T>& x, const typename Same<T>::type& c) { return x.p + c; }
template <class T>
T operator+(const typename Same<T>::type& c, const Addend<T>& x) { return c + x.p; }
template <class T>
T operator+(const Addend<T>& x, const typename ProductOf<T>::type& q) { return x.product ? x.p + static_cast<T>(q) : x.value() + q; }
template <class T>
T operator+(const typename ProductOf<T>::type& q, const Addend<T>& x) { return q + x.value(); }
template <class T>
T operator+(const Addend<T>& x, const Addend<T>& y) { return x.product ? x.p + y.value() : x.value() + y.p; }
template <class T>
T operator-(const Addend<T>& x, const typename Same<T>::type& c) { return x.p - c; }
template <class T>
T operator-(const typename Same<T>::type& c, const Addend<T>& x) { return c - x.p; }
template <class T>
T operator-(const Addend<T>& x, const typename ProductOf<T>::type& q) { return x.product ? x.p - static_cast<T>(q) : x.value() - q; }
template <class T>
T operator-(const typename ProductOf<T>::type& q, const Addend<T>& x) { return q - x.value(); }
template <class T>
T operator-(const Addend<T>& x, const Addend<T>& y) { return x.product ? x.p - y.value() : x.value() - y.p; }
template <class T>
T& operator+=(T& s, const Addend<T>& x) { return s = s + x.p; }
template <class T>
T& operator-=(T& s, const Addend<T>& x) { return s = s - x.p; }
}  // namespace fp
}  // namespace cuda_emu
// __hadd and friends with an Addend on either side (or both), as + and - do.
#define CUDA_EMU_ADDEND_CALL(name, op)                                                                        \
  template <class T>                                                                                          \
  T name(const ::cuda_emu::fp::Addend<T>& x, const typename ::cuda_emu::fp::Same<T>::type& c) {               \
    return x op c;                                                                                            \
  }                                                                                                           \
  template <class T>                                                                                          \
  T name(const typename ::cuda_emu::fp::Same<T>::type& c, const ::cuda_emu::fp::Addend<T>& x) {               \
    return c op x;                                                                                            \
  }                                                                                                           \
  template <class T>                                                                                          \
  T name(const ::cuda_emu::fp::Addend<T>& x, const typename ::cuda_emu::fp::ProductOf<T>::type& q) {          \
    return x op q;                                                                                            \
  }                                                                                                           \
  template <class T>                                                                                          \
  T name(const typename ::cuda_emu::fp::ProductOf<T>::type& q, const ::cuda_emu::fp::Addend<T>& x) {          \
    return q op x;                                                                                            \
  }                                                                                                           \
  template <class T>                                                                                          \
  T name(const ::cuda_emu::fp::Addend<T>& x, const ::cuda_emu::fp::Addend<T>& y) {                            \
    return x op y;                                                                                            \
  }
CUDA_EMU_ADDEND_CALL(__hadd, +)
CUDA_EMU_ADDEND_CALL(__hsub, -)
CUDA_EMU_ADDEND_CALL(__hadd2, +)
CUDA_EMU_ADDEND_CALL(__hsub2, -)
#undef CUDA_EMU_ADDEND_CALL

#endif  // CUDA_EMU_CUDA_FP16_H
