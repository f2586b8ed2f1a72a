// The math API's SIMD intrinsics: a 32-bit word read as two halfwords (the
// functions ending in 2 and 16x2) or four bytes (ending in 4), each lane
// computed on its own; and the DPX minimum and maximum functions of CUDA 12
// (__vimax3_s32, __viaddmin_u16x2, __vibmax_s32, ...), which the H100 and
// H200 run in hardware.
//
// Integer arithmetic has one right answer, so each function is written as
// what it computes on one lane (lane_u/lane_s read the lane unsigned or
// signed; per_lane puts the lanes' results back into a word, keeping the
// lane's low bits: that is the wrap-around of the non-saturating forms).
// The choices the documentation leaves open were settled on the H200 by
// tests/cuda/simd_video.cu and tests/cuda/simd_dpx.cu:
// - __vabs2/__vabs4 wrap (the lowest lane value stays itself), the ss forms
//   saturate to the largest;
// - __vabsdiffs* are |a - b| in the wide type, kept to the lane's bits;
// - __vavgs* round half away from zero, __vavgu* half up, __vhaddu* down;
// - __vsads*/__vsadu* add the lanes' absolute differences into one word;
// - __vibmax* say whether the first operand won (a >= b), __vibmin* the
//   same for a <= b.
// Written here rather than taken from a library: these are a few lines of
// integer arithmetic each, and no C++ library has the CUDA names or rules.
#ifndef CUDA_EMU_SIMD_H
#define CUDA_EMU_SIMD_H

#include <algorithm>

namespace cuda_emu {
namespace simd {
template <int Bits>
constexpr unsigned kLaneMask = Bits == 32 ? 0xffffffffu : (1u << Bits) - 1;

// Lane `shift` (its lowest bit's position) of a word, unsigned and signed.
template <int Bits>
inline int lane_u(unsigned word, int shift) {
  return static_cast<int>((word >> shift) & kLaneMask<Bits>);
}
template <int Bits>
inline int lane_s(unsigned word, int shift) {
  return static_cast<int>(word << (32 - Bits - shift)) >> (32 - Bits);
}
// The word whose lanes are f(shift) for each lane, each kept to its bits.
template <int Bits, class F>
inline unsigned per_lane(F f) {
  unsigned word = 0;
  for (int shift = 0; shift < 32; shift += Bits)
    word |= (static_cast<unsigned>(f(shift)) & kLaneMask<Bits>) << shift;
  return word;
}
template <int Bits>
inline int saturate_s(int v) {
  return std::min(std::max(v, -(1 << (Bits - 1))), (1 << (Bits - 1)) - 1);
}
template <int Bits>
inline int saturate_u(int v) {
  return std::min(std::max(v, 0), static_cast<int>(kLaneMask<Bits>));
}
template <int Bits>
inline unsigned all_ones_if(bool c) {
  return c ? kLaneMask<Bits> : 0u;
}
// Half away from zero: the rounding of __vavgs2/__vavgs4.
inline int average_s(int a, int b) {
  const int sum = a + b;
  return sum >= 0 ? (sum + 1) >> 1 : sum >> 1;
}
}  // namespace simd
}  // namespace cuda_emu

// One function for halfwords (suffix 2) and one for bytes (suffix 4), from a
// per-lane expression over a (and b) read unsigned (ua, ub) or signed (sa, sb).
#define CUDA_EMU_SIMD_1_OF(NAME, SUFFIX, BITS, EXPR)   \
  inline unsigned int NAME##SUFFIX(unsigned int a) {   \
    using namespace ::cuda_emu::simd;                  \
    constexpr int B = BITS;                            \
    return per_lane<B>([=](int k) {                    \
      const int sa = lane_s<B>(a, k);                  \
      return EXPR;                                     \
    });                                                \
  }
#define CUDA_EMU_SIMD_2_OF(NAME, SUFFIX, BITS, EXPR)                 \
  inline unsigned int NAME##SUFFIX(unsigned int a, unsigned int b) { \
    using namespace ::cuda_emu::simd;                                \
    constexpr int B = BITS;                                          \
    return per_lane<B>([=](int k) {                                  \
      const int ua = lane_u<B>(a, k), ub = lane_u<B>(b, k);          \
      const int sa = lane_s<B>(a, k), sb = lane_s<B>(b, k);          \
      (void)ua, (void)ub, (void)sa, (void)sb;                        \
      return EXPR;                                                   \
    });                                                              \
  }
#define CUDA_EMU_SIMD_1(NAME, EXPR) \
  CUDA_EMU_SIMD_1_OF(NAME, 2, 16, EXPR) CUDA_EMU_SIMD_1_OF(NAME, 4, 8, EXPR)
#define CUDA_EMU_SIMD_2(NAME, EXPR) \
  CUDA_EMU_SIMD_2_OF(NAME, 2, 16, EXPR) CUDA_EMU_SIMD_2_OF(NAME, 4, 8, EXPR)

CUDA_EMU_SIMD_1(__vabs, sa < 0 ? -sa : sa)
CUDA_EMU_SIMD_1(__vabsss, saturate_s<B>(sa < 0 ? -sa : sa))
CUDA_EMU_SIMD_1(__vneg, -sa)
CUDA_EMU_SIMD_1(__vnegss, saturate_s<B>(-sa))
CUDA_EMU_SIMD_2(__vabsdiffs, sa > sb ? sa - sb : sb - sa)
CUDA_EMU_SIMD_2(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
CUDA_EMU_SIMD_2(__vadd, ua + ub)
CUDA_EMU_SIMD_2(__vaddss, saturate_s<B>(sa + sb))
CUDA_EMU_SIMD_2(__vaddus, saturate_u<B>(ua + ub))
CUDA_EMU_SIMD_2(__vsub, ua - ub)
CUDA_EMU_SIMD_2(__vsubss, saturate_s<B>(sa - sb))
CUDA_EMU_SIMD_2(__vsubus, saturate_u<B>(ua - ub))
CUDA_EMU_SIMD_2(__vavgs, average_s(sa, sb))
CUDA_EMU_SIMD_2(__vavgu, (ua + ub + 1) >> 1)
CUDA_EMU_SIMD_2(__vhaddu, (ua + ub) >> 1)
CUDA_EMU_SIMD_2(__vmaxs, std::max(sa, sb))
CUDA_EMU_SIMD_2(__vmaxu, std::max(ua, ub))
CUDA_EMU_SIMD_2(__vmins, std::min(sa, sb))
CUDA_EMU_SIMD_2(__vminu, std::min(ua, ub))
CUDA_EMU_SIMD_2(__vcmpeq, all_ones_if<B>(ua == ub))
CUDA_EMU_SIMD_2(__vcmpne, all_ones_if<B>(ua != ub))
CUDA_EMU_SIMD_2(__vcmpges, all_ones_if<B>(sa >= sb))
CUDA_EMU_SIMD_2(__vcmpgeu, all_ones_if<B>(ua >= ub))
CUDA_EMU_SIMD_2(__vcmpgts, all_ones_if<B>(sa > sb))
CUDA_EMU_SIMD_2(__vcmpgtu, all_ones_if<B>(ua > ub))
CUDA_EMU_SIMD_2(__vcmples, all_ones_if<B>(sa <= sb))
CUDA_EMU_SIMD_2(__vcmpleu, all_ones_if<B>(ua <= ub))
CUDA_EMU_SIMD_2(__vcmplts, all_ones_if<B>(sa < sb))
CUDA_EMU_SIMD_2(__vcmpltu, all_ones_if<B>(ua < ub))
CUDA_EMU_SIMD_2(__vseteq, ua == ub)
CUDA_EMU_SIMD_2(__vsetne, ua != ub)
CUDA_EMU_SIMD_2(__vsetges, sa >= sb)
CUDA_EMU_SIMD_2(__vsetgeu, ua >= ub)
CUDA_EMU_SIMD_2(__vsetgts, sa > sb)
CUDA_EMU_SIMD_2(__vsetgtu, ua > ub)
CUDA_EMU_SIMD_2(__vsetles, sa <= sb)
CUDA_EMU_SIMD_2(__vsetleu, ua <= ub)
CUDA_EMU_SIMD_2(__vsetlts, sa < sb)
CUDA_EMU_SIMD_2(__vsetltu, ua < ub)
#undef CUDA_EMU_SIMD_1
#undef CUDA_EMU_SIMD_2
#undef CUDA_EMU_SIMD_1_OF
#undef CUDA_EMU_SIMD_2_OF

// Sums of absolute differences: one number, not lanes.
namespace cuda_emu {
namespace simd {
template <int Bits, bool Signed>
inline unsigned sad(unsigned a, unsigned b) {
  unsigned sum = 0;
  for (int k = 0; k < 32; k += Bits) {
    const int x = Signed ? lane_s<Bits>(a, k) : lane_u<Bits>(a, k);
    const int y = Signed ? lane_s<Bits>(b, k) : lane_u<Bits>(b, k);
    sum += static_cast<unsigned>(x > y ? x - y : y - x);
  }
  return sum;
}
}  // namespace simd
}  // namespace cuda_emu
inline unsigned int __vsads2(unsigned int a, unsigned int b) { return ::cuda_emu::simd::sad<16, true>(a, b); }
inline unsigned int __vsads4(unsigned int a, unsigned int b) { return ::cuda_emu::simd::sad<8, true>(a, b); }
inline unsigned int __vsadu2(unsigned int a, unsigned int b) { return ::cuda_emu::simd::sad<16, false>(a, b); }
inline unsigned int __vsadu4(unsigned int a, unsigned int b) { return ::cuda_emu::simd::sad<8, false>(a, b); }

// DPX: three-way minimum and maximum, add-then-compare, with ReLU (a floor of
// zero), on one 32-bit integer or two 16-bit lanes. The sums wrap in the
// operands' width (a + b of two ints is computed in 32 bits, as on the GPU).
namespace cuda_emu {
namespace dpx {
inline int add_s32(int a, int b) {
  return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
}
template <int Bits>
inline int wrap_s(int v) {
  return Bits == 32 ? v : static_cast<int>(static_cast<unsigned>(v) << (32 - Bits)) >> (32 - Bits);
}
template <int Bits>
inline int wrap_u(int v) {
  return static_cast<int>(static_cast<unsigned>(v) & simd::kLaneMask<Bits>);
}
}  // namespace dpx
}  // namespace cuda_emu

// Halfword pairs: each lane of a, b (and c) read signed (S) or unsigned (U).
#define CUDA_EMU_DPX_16X2(NAME, READ, EXPR)                                              \
  inline unsigned int NAME(unsigned int a, unsigned int b, unsigned int c) {             \
    using namespace ::cuda_emu::simd;                                                    \
    using namespace ::cuda_emu::dpx;                                                     \
    constexpr int B = 16;                                                                \
    return per_lane<B>([=](int k) {                                                      \
      const int x = READ<B>(a, k), y = READ<B>(b, k), z = READ<B>(c, k);                 \
      (void)z;                                                                           \
      return EXPR;                                                                       \
    });                                                                                  \
  }
#define CUDA_EMU_DPX_16X2_BINARY(NAME, READ, EXPR)                                       \
  inline unsigned int NAME(unsigned int a, unsigned int b) {                             \
    using namespace ::cuda_emu::simd;                                                    \
    constexpr int B = 16;                                                                \
    return per_lane<B>([=](int k) {                                                      \
      const int x = READ<B>(a, k), y = READ<B>(b, k);                                    \
      return EXPR;                                                                       \
    });                                                                                  \
  }

CUDA_EMU_DPX_16X2(__vimax3_s16x2, lane_s, std::max({x, y, z}))
CUDA_EMU_DPX_16X2(__vimax3_u16x2, lane_u, std::max({x, y, z}))
CUDA_EMU_DPX_16X2(__vimin3_s16x2, lane_s, std::min({x, y, z}))
CUDA_EMU_DPX_16X2(__vimin3_u16x2, lane_u, std::min({x, y, z}))
CUDA_EMU_DPX_16X2(__vimax3_s16x2_relu, lane_s, std::max({x, y, z, 0}))
CUDA_EMU_DPX_16X2(__vimin3_s16x2_relu, lane_s, std::max(std::min({x, y, z}), 0))
CUDA_EMU_DPX_16X2(__viaddmax_s16x2, lane_s, std::max(wrap_s<B>(x + y), z))
CUDA_EMU_DPX_16X2(__viaddmax_u16x2, lane_u, std::max(wrap_u<B>(x + y), z))
CUDA_EMU_DPX_16X2(__viaddmin_s16x2, lane_s, std::min(wrap_s<B>(x + y), z))
CUDA_EMU_DPX_16X2(__viaddmin_u16x2, lane_u, std::min(wrap_u<B>(x + y), z))
CUDA_EMU_DPX_16X2(__viaddmax_s16x2_relu, lane_s, std::max({wrap_s<B>(x + y), z, 0}))
CUDA_EMU_DPX_16X2(__viaddmin_s16x2_relu, lane_s, std::max(std::min(wrap_s<B>(x + y), z), 0))
CUDA_EMU_DPX_16X2_BINARY(__vimax_s16x2_relu, lane_s, std::max({x, y, 0}))
CUDA_EMU_DPX_16X2_BINARY(__vimin_s16x2_relu, lane_s, std::max(std::min(x, y), 0))
#undef CUDA_EMU_DPX_16X2
#undef CUDA_EMU_DPX_16X2_BINARY

inline int __vimax3_s32(int a, int b, int c) { return std::max({a, b, c}); }
inline unsigned int __vimax3_u32(unsigned int a, unsigned int b, unsigned int c) {
  return std::max({a, b, c});
}
inline int __vimin3_s32(int a, int b, int c) { return std::min({a, b, c}); }
inline unsigned int __vimin3_u32(unsigned int a, unsigned int b, unsigned int c) {
  return std::min({a, b, c});
}
inline int __vimax3_s32_relu(int a, int b, int c) { return std::max({a, b, c, 0}); }
inline int __vimin3_s32_relu(int a, int b, int c) { return std::max(std::min({a, b, c}), 0); }
inline int __vimax_s32_relu(int a, int b) { return std::max({a, b, 0}); }
inline int __vimin_s32_relu(int a, int b) { return std::max(std::min(a, b), 0); }
inline int __viaddmax_s32(int a, int b, int c) { return std::max(::cuda_emu::dpx::add_s32(a, b), c); }
inline unsigned int __viaddmax_u32(unsigned int a, unsigned int b, unsigned int c) {
  return std::max(a + b, c);
}
inline int __viaddmin_s32(int a, int b, int c) { return std::min(::cuda_emu::dpx::add_s32(a, b), c); }
inline unsigned int __viaddmin_u32(unsigned int a, unsigned int b, unsigned int c) {
  return std::min(a + b, c);
}
inline int __viaddmax_s32_relu(int a, int b, int c) {
  return std::max({::cuda_emu::dpx::add_s32(a, b), c, 0});
}
inline int __viaddmin_s32_relu(int a, int b, int c) {
  return std::max(std::min(::cuda_emu::dpx::add_s32(a, b), c), 0);
}

// Minimum or maximum with a flag saying whether the first operand was chosen.
inline int __vibmax_s32(int a, int b, bool* pred) {
  *pred = a >= b;
  return std::max(a, b);
}
inline unsigned int __vibmax_u32(unsigned int a, unsigned int b, bool* pred) {
  *pred = a >= b;
  return std::max(a, b);
}
inline int __vibmin_s32(int a, int b, bool* pred) {
  *pred = a <= b;
  return std::min(a, b);
}
inline unsigned int __vibmin_u32(unsigned int a, unsigned int b, bool* pred) {
  *pred = a <= b;
  return std::min(a, b);
}
namespace cuda_emu {
namespace dpx {
template <bool Signed, bool Max>
inline unsigned pick_16x2(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) {
  using namespace simd;
  bool* preds[2] = {pred_lo, pred_hi};
  return per_lane<16>([=](int k) {
    const int x = Signed ? lane_s<16>(a, k) : lane_u<16>(a, k);
    const int y = Signed ? lane_s<16>(b, k) : lane_u<16>(b, k);
    const bool first = Max ? x >= y : x <= y;
    *preds[k / 16] = first;
    return first ? x : y;
  });
}
}  // namespace dpx
}  // namespace cuda_emu
inline unsigned int __vibmax_s16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) {
  return ::cuda_emu::dpx::pick_16x2<true, true>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmax_u16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) {
  return ::cuda_emu::dpx::pick_16x2<false, true>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmin_s16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) {
  return ::cuda_emu::dpx::pick_16x2<true, false>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmin_u16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) {
  return ::cuda_emu::dpx::pick_16x2<false, false>(a, b, pred_hi, pred_lo);
}

#endif  // CUDA_EMU_SIMD_H
