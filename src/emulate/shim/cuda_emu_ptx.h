// cuda_emu_ptx.h: part of the CPU emulation shim: what inline PTX is
// translated into (src/emulate/ptx.rs writes the calls; included by
// cuda_runtime.h).
//
// A PTX register is bits of a width; an asm operand is a C++ object of any
// arithmetic type. in<T>(x) reads an operand as the instruction's type T (a
// value conversion between integers or between floats, the bits between an
// integer and a float), out(d, v) writes the result back the same way.
// Where CUDA has the instruction as an intrinsic (mul.hi as __umulhi, popc,
// clz, brev, shf as __funnelshift_l/_lc/_r/_rc), the translation calls that;
// the rest are here, following the PTX ISA's definitions word for word
// (bfe's sign bit, bfind's -1, shift amounts past the width, prmt's sign
// replication); tests/cuda/ptx_inline.cu checks them against the GPU.
#ifndef CUDA_EMU_PTX_H
#define CUDA_EMU_PTX_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cuda_emu {
namespace ptx {

// Stops the program at an instruction the translation cannot reproduce, naming
// its line (an operand known only at run time).
[[noreturn]] void ptx_refused(const char* file, int line, const char* what);

template <class T, class S>
inline T in(const S& s) {
  if constexpr (std::is_pointer<S>::value) {
    return static_cast<T>(reinterpret_cast<uintptr_t>(s));
  } else if constexpr (std::is_arithmetic<S>::value && std::is_arithmetic<T>::value &&
                       std::is_floating_point<S>::value == std::is_floating_point<T>::value) {
    return static_cast<T>(s);
  } else if constexpr (sizeof(T) == sizeof(S)) {
    T t;
    memcpy(&t, &s, sizeof t);
    return t;
  } else if constexpr (std::is_floating_point<T>::value) {
    // An integer of another width: its low bits (an immediate's value).
    typedef typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type U;
    const U u = static_cast<U>(s);
    T t;
    memcpy(&t, &u, sizeof t);
    return t;
  } else {
    // A float (or a 16-bit type) read as an integer of another width.
    typedef typename std::conditional<
        sizeof(S) == 2, uint16_t, typename std::conditional<sizeof(S) == 4, uint32_t, uint64_t>::type>::type U;
    U u;
    memcpy(&u, &s, sizeof u);
    return static_cast<T>(u);
  }
}

template <class D, class T>
inline void out(D& d, const T& v) {
  d = in<typename std::remove_cv<D>::type>(v);
}

// A memory operand's base: a pointer or an integer address.
template <class A>
inline uintptr_t address(const A& a) {
  if constexpr (std::is_pointer<A>::value)
    return reinterpret_cast<uintptr_t>(a);
  else
    return static_cast<uintptr_t>(a);
}

template <class T>
using Unsigned = typename std::make_unsigned<T>::type;

template <class T>
constexpr unsigned kBits = 8 * sizeof(T);

// shl/shr: shift amounts of the width or more shift everything out (shr of
// a signed type fills with the sign).
template <class T>
inline T shl(T a, unsigned n) {
  return n >= kBits<T> ? T(0) : static_cast<T>(static_cast<Unsigned<T>>(a) << n);
}
template <class T>
inline T shr(T a, unsigned n) {
  if (std::is_signed<T>::value) return n >= kBits<T> ? T(a < 0 ? -1 : 0) : static_cast<T>(a >> n);
  return n >= kBits<T> ? T(0) : static_cast<T>(a >> n);
}

// bfind: the bit position of the most significant non-sign bit (for a
// negative signed value, of the most significant 0), 0xffffffff when there is
// none; .shiftamt gives the left shift that would bring it to the top.
template <class T>
inline unsigned bfind(T a, bool shiftamt) {
  Unsigned<T> u = static_cast<Unsigned<T>>(a);
  if (std::is_signed<T>::value && a < 0) u = static_cast<Unsigned<T>>(~u);
  if (u == 0) return 0xffffffffu;
  const unsigned pos = 63u - static_cast<unsigned>(__builtin_clzll(static_cast<unsigned long long>(u)));
  return shiftamt ? kBits<T> - 1 - pos : pos;
}

// bfe: len bits of a from bit pos (each the low 8 bits of its operand),
// extended with the field's top bit for signed types; a field running past
// the top takes the top bits; len 0 gives 0.
template <class T>
inline T bfe(T a, unsigned b, unsigned c) {
  const unsigned msb = kBits<T> - 1, pos = b & 0xffu, len = c & 0xffu;
  const Unsigned<T> u = static_cast<Unsigned<T>>(a);
  bool sbit = false;
  if (std::is_signed<T>::value && len != 0) {
    const unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    sbit = (u >> top) & 1u;
  }
  Unsigned<T> d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const bool bit = (i < len && pos + i <= msb) ? ((u >> (pos + i)) & 1u) : sbit;
    d = static_cast<Unsigned<T>>(d | (static_cast<Unsigned<T>>(bit) << i));
  }
  return static_cast<T>(d);
}

// bfi: b with len bits from a's bottom put in at bit pos (bits past the top
// are dropped).
template <class T>
inline T bfi(T a, T b, unsigned c, unsigned d) {
  const unsigned msb = kBits<T> - 1, pos = c & 0xffu, len = d & 0xffu;
  Unsigned<T> r = static_cast<Unsigned<T>>(b);
  const Unsigned<T> f = static_cast<Unsigned<T>>(a);
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    const Unsigned<T> bit = static_cast<Unsigned<T>>(1) << (pos + i);
    r = static_cast<Unsigned<T>>(((f >> i) & 1u) ? (r | bit) : (r & ~bit));
  }
  return static_cast<T>(r);
}

// prmt.b32 (default mode): byte n of the result is byte c[4n+2:4n] of the
// eight bytes {b, a} (a the low four), or that byte's sign replicated when
// c[4n+3] is set.
inline unsigned prmt(unsigned a, unsigned b, unsigned c) {
  const unsigned long long v = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned r = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned sel = (c >> (4 * n)) & 0xfu;
    unsigned byte = static_cast<unsigned>(v >> (8 * (sel & 7u))) & 0xffu;
    if (sel & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    r |= byte << (8 * n);
  }
  return r;
}

// lop3.b32: bit k of immLut is the result for inputs a = k[2], b = k[1], c = k[0].
inline unsigned lop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned r = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (!((lut >> k) & 1u)) continue;
    r |= ((k & 4u) ? a : ~a) & ((k & 2u) ? b : ~b) & ((k & 1u) ? c : ~c);
  }
  return r;
}

// Extended-precision arithmetic: add.cc, addc, sub.cc, subc, mad.cc and madc carry
// CC.CF from one instruction to the next inside one asm statement (the translation
// keeps it in a local, `cf`). U is the unsigned type of the instruction's width; a
// carry-in is added (addc, madc) or subtracted with b (subc: a - (b + CF)), and the
// carry-out of the addition, or the borrow of the subtraction, is what the next
// instruction reads.
template <class U>
inline U add_carry(U a, U b, unsigned carry_in, unsigned& cf) {
  const U sum = static_cast<U>(a + b);
  const U out = static_cast<U>(sum + carry_in);
  cf = (sum < a || out < sum) ? 1u : 0u;
  return out;
}
template <class U>
inline U sub_borrow(U a, U b, unsigned borrow_in, unsigned& cf) {
  const U difference = static_cast<U>(a - b);
  const U out = static_cast<U>(difference - borrow_in);
  cf = (a < b || difference < borrow_in) ? 1u : 0u;
  return out;
}

// dp4a.atype.btype: c plus the four products of a's and b's bytes, each sign- or
// zero-extended as its type says; dp2a.lo/.hi: c plus the two products of a's 16-bit
// halves with b's bytes 0 and 1 (lo) or 2 and 3 (hi). Wrapping 32-bit sums; `dot`
// is both: a's lanes of ABits bits against b's bytes from byte BFirst on.
template <int ABits, bool SignedA, bool SignedB, int BFirst>
inline unsigned dot(unsigned a, unsigned b, unsigned c) {
  unsigned d = c;
  for (int i = 0; i < 32 / ABits; ++i) {
    const unsigned la = (a >> (ABits * i)) << (32 - ABits);  // the lane, at the top
    const unsigned lb = (b >> (8 * (BFirst + i))) << 24;
    const int va = SignedA ? static_cast<int>(la) >> (32 - ABits) : static_cast<int>(la >> (32 - ABits));
    const int vb = SignedB ? static_cast<int>(lb) >> 24 : static_cast<int>(lb >> 24);
    d += static_cast<unsigned>(va) * static_cast<unsigned>(vb);
  }
  return d;
}
template <bool SignedA, bool SignedB>
inline unsigned dp4a(unsigned a, unsigned b, unsigned c) {
  return dot<8, SignedA, SignedB, 0>(a, b, c);
}
template <bool SignedA, bool SignedB, bool High>
inline unsigned dp2a(unsigned a, unsigned b, unsigned c) {
  return dot<16, SignedA, SignedB, High ? 2 : 0>(a, b, c);
}

// sad: c + |a - b|, the difference taken in the unsigned type (no overflow past the
// signed range), as PTX's sad and CUDA's __sad and __usad.
template <class T>
inline T sad(T a, T b, T c) {
  typedef typename std::make_unsigned<T>::type U;
  const U ua = static_cast<U>(a), ub = static_cast<U>(b);
  return static_cast<T>(static_cast<U>(c) + (a > b ? ua - ub : ub - ua));
}

// cvt to and from the 16-bit float formats (format 0: f16, 1: bf16; mode 0 to 3:
// rn, rz, rm, rp), rounded once (cuda_emu_fp16_core.h, in the runtime).
unsigned short to_16_bit(float x, int format, int mode);
float from_16_bit(unsigned short bits, int format);

// The hardware approximations of the 16-bit formats, each measured on all
// 65536 inputs on an H100 (tests/cuda/fitting/mufu_ex2_f16.cu,
// mufu_half_approx.cu: 0 mismatches each): the float approximation
// (ex2.approx.ftz.f32, tanh.approx.f32) of the widened input, cut toward
// zero to the format; a NaN gives 0x7fff. ex2.approx.f16 also gives infinity
// from 2^16 on (where the cut would give 65504). It is not cuda_fp16.h's
// hexp2, which nudges the float up and rounds to nearest (19417 halves
// differ). The pairs (.f16x2, .bf16x2): each half alike (each_half).
inline unsigned short ex2_approx_f16(unsigned short h) {
  const float e = ::cuda_emu::math::hardware_ex2(from_16_bit(h, 0));
  if (e >= 65536.0f) return 0x7c00;
  return to_16_bit(e, 0, 1);
}
inline unsigned short ex2_approx_bf16(unsigned short h) {
  return to_16_bit(::cuda_emu::math::hardware_ex2(from_16_bit(h, 1)), 1, 1);
}
inline unsigned short tanh_approx_f16(unsigned short h) {
  return to_16_bit(::cuda_emu::math::hardware_tanh(from_16_bit(h, 0)), 0, 1);
}
inline unsigned short tanh_approx_bf16(unsigned short h) {
  return to_16_bit(::cuda_emu::math::hardware_tanh(from_16_bit(h, 1)), 1, 1);
}
inline unsigned each_half(unsigned short (*f)(unsigned short), unsigned pair) {
  const unsigned hi = f(static_cast<unsigned short>(pair >> 16));
  return hi << 16 | f(static_cast<unsigned short>(pair & 0xffffu));
}

// cp.async: size bytes to dst, of which the first src_size come from src and the
// rest are zeros.
inline void copy_async(char* dst, const char* src, unsigned size, unsigned src_size) {
  const unsigned n = src_size < size ? src_size : size;
  memcpy(dst, src, n);
  memset(dst + n, 0, size - n);
}

// shfl.sync's c operand as the width __shfl_*_sync take: c is (32 - width) << 8
// with the clamp 31 (0 for up), width a power of two; any other c is refused.
inline int shfl_width(unsigned c, bool up, const char* file, int line) {
  const unsigned segment = (c >> 8) & 31u, clamp = c & 31u;
  const unsigned width = 32u - segment;
  if ((c & ~0x1f1fu) == 0 && (width & (width - 1u)) == 0 && clamp == (up ? 0u : 31u)) return static_cast<int>(width);
  ptx_refused(file, line, "shfl.sync with a c operand that is no __shfl_*_sync width");
}

// .ftz: a subnormal input or result is a zero of its sign.
inline float flush_subnormal(float x) {
  return (x != 0.0f && x > -1.17549435e-38f && x < 1.17549435e-38f) ? (x < 0 ? -0.0f : 0.0f) : x;
}

// An .ftz instruction's result: a subnormal is a zero of its sign. A product
// whose exact value is below 2^-126 is flushed even where it rounds to 2^-126
// (tests/cuda/ptx_ftz.cu on the H200: 0x3f7fffff * 2^-126 gave 0 in every
// rounding mode), so a product passes its operands (exact in double). A sum
// or difference is exact wherever it is that small. A fused multiply-add,
// quotient, root or reciprocal that rounded to +-2^-126 from an inexact
// value stops the run, naming the line (whether the GPU flushes those was
// not measured); an exact +-2^-126 is kept.
inline bool is_min_normal(float r) { return r == 1.17549435e-38f || r == -1.17549435e-38f; }
[[noreturn]] inline void ftz_rounded_refused(const char* file, int line) {
  ptx_refused(file, line,
              "a .ftz result of +-2^-126 rounded up from a subnormal (whether the GPU flushes it was "
              "measured for mul only)");
}
inline float ftz_product(float r, float a, float b) {
  const double exact = static_cast<double>(a) * static_cast<double>(b);
  if (exact != 0.0 && exact > -0x1p-126 && exact < 0x1p-126) return exact < 0 ? -0.0f : 0.0f;
  return flush_subnormal(r);
}
inline float ftz_fused(float r, float a, float b, float c, const char* file, int line) {
  // Near 2^-126 the exact a*b + c has few enough bits for a double.
  if (is_min_normal(r) && std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c)) != r)
    ftz_rounded_refused(file, line);
  return flush_subnormal(r);
}
inline float ftz_quotient(float r, float a, float b, const char* file, int line) {
  if (is_min_normal(r) && std::fma(r, b, -a) != 0.0f) ftz_rounded_refused(file, line);
  return flush_subnormal(r);
}
inline float ftz_root(float r, float a, const char* file, int line) {
  if (is_min_normal(r) && std::fma(r, r, -a) != 0.0f) ftz_rounded_refused(file, line);
  return flush_subnormal(r);
}
inline float ftz_reciprocal(float r, float a, const char* file, int line) {
  if (is_min_normal(r) && std::fma(r, a, -1.0f) != 0.0f) ftz_rounded_refused(file, line);
  return flush_subnormal(r);
}

// .sat: the result clamped to [0, 1], a NaN and -0 made +0 (ptx_ftz.cu).
inline float saturate(float r) {
  if (math::nan_bits(r) || !(r > 0.0f)) return 0.0f;
  return r > 1.0f ? 1.0f : r;
}

// abs.f32 and neg.f32 (ptx_ftz.cu): the sign bit cleared or flipped, a NaN made
// 0x7fffffff; subnormals kept.
inline float abs_f32(float x) { return math::nan_bits(x) ? math::bits_float(math::kGpuNanF) : std::fabs(x); }
inline float neg_f32(float x) { return math::nan_bits(x) ? math::bits_float(math::kGpuNanF) : -x; }
// abs.f64 and neg.f64 (tests/cuda/ptx_f64_minmax.cu, an H100): a NaN comes
// out quieted with its sign and payload, not 0x7fffffff as in f32.
inline double abs_f64(double x) { return math::nan_bits(x) ? math::quieted(x) : std::fabs(x); }
inline double neg_f64(double x) { return math::nan_bits(x) ? math::quieted(x) : -x; }

}  // namespace ptx
}  // namespace cuda_emu

#endif  // CUDA_EMU_PTX_H
