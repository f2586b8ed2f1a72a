// Inline PTX of the kinds real programs write: integer bit operations
// (lop3, bfe, bfi, bfind, prmt, shf, shifts past the width, popc, clz,
// brev), high and wide products, {lo, hi} packing, .reg blocks, floats
// with rounding modifiers, cvt between integers and floats and to and from
// the 16-bit formats (checked against cuda_fp16.h's conversions), the .approx
// functions with and without .ftz, and the special registers. Each result over 4096 inputs (edge values,
// then pseudo-random ones) is printed as an FNV-1a hash; the integer ones
// are also checked on the host against the PTX ISA's definitions, and the
// first input where they differ is printed.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kN = 4096;
constexpr int kInt = 48;    // integer results per input
constexpr int kFloat = 40;  // float results per input

__global__ void integers(const unsigned* A, const unsigned* B, const unsigned* C, unsigned long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  const unsigned a = A[i], b = B[i], c = C[i];
  const unsigned long long a64 = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned long long* o = out + static_cast<size_t>(i) * kInt;
  unsigned r;
  int s;
  unsigned long long r64;
  long long s64;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[0] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[1] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xCA;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[2] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x01;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[3] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x3C;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[4] = r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 0x12f), "r"(c & 0x13f));
  o[5] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(static_cast<int>(a)), "r"(b & 0x3f), "r"(c & 0x3f));
  o[6] = static_cast<unsigned>(s);
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 0x3f), "r"((c >> 8) & 0x13f));
  o[7] = r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[8] = r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(static_cast<int>(a) >> (c & 31)));
  o[9] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[10] = r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[11] = r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63));
  o[12] = r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63));
  o[13] = r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63));
  o[14] = r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63));
  o[15] = r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c & 63));
  o[16] = r;
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c & 63));
  o[17] = r;
  asm("shr.s32 %0, %1, %2;" : "=r"(s) : "r"(static_cast<int>(a)), "r"(c & 63));
  o[18] = static_cast<unsigned>(s);
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[19] = r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[20] = r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[21] = r;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[22] = r;
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(s) : "r"(static_cast<int>(a)), "r"(static_cast<int>(b)));
  o[23] = static_cast<unsigned>(s);
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[24] = r;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[25] = r;
  asm("min.s32 %0, %1, %2;" : "=r"(s) : "r"(static_cast<int>(a)), "r"(static_cast<int>(b)));
  o[26] = static_cast<unsigned>(s);
  asm("max.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[27] = r;
  asm("neg.s32 %0, %1;" : "=r"(s) : "r"(static_cast<int>(a)));
  o[28] = static_cast<unsigned>(s);
  asm("abs.s32 %0, %1;" : "=r"(s) : "r"(static_cast<int>(a)));
  o[29] = static_cast<unsigned>(s);
  asm("not.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[30] = r;
  asm("sub.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[31] = r;
  asm("{\n\t.reg .u32 t;\n\txor.b32 t, %1, %2;\n\tand.b32 t, t, %3;\n\tor.b32 %0, t, 0x80000001;\n\t}"
      : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[32] = r;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(r64) : "r"(a), "r"(b));
  o[33] = r64;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(s64) : "r"(static_cast<int>(a)), "r"(static_cast<int>(b)));
  o[34] = static_cast<unsigned long long>(s64);
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(r64) : "l"(a64), "l"(a64 * c + b));
  o[35] = r64;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r64) : "l"(a64), "r"(b & 0x7f), "r"(c & 0x7f));
  o[36] = r64;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(s64) : "l"(static_cast<long long>(a64)), "r"(b & 0x7f), "r"(c & 0x7f));
  o[37] = static_cast<unsigned long long>(s64);
  asm("bfind.s64 %0, %1;" : "=r"(r) : "l"(static_cast<long long>(a64) >> (c & 63)));
  o[38] = r;
  asm("clz.b64 %0, %1;" : "=r"(r) : "l"(a64 >> (c & 63)));
  o[39] = r;
  asm("popc.b64 %0, %1;" : "=r"(r) : "l"(a64));
  o[40] = r;
  asm("brev.b64 %0, %1;" : "=l"(r64) : "l"(a64));
  o[41] = r64;
  asm("shl.b64 %0, %1, %2;" : "=l"(r64) : "l"(a64), "r"(c & 127));
  o[42] = r64;
  unsigned lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(a64 * 3));
  o[43] = (static_cast<unsigned long long>(lo) << 32) | hi;
  asm("mov.b64 %0, {%1, %2};" : "=l"(r64) : "r"(c), "r"(a));
  o[44] = r64;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r64) : "r"(a), "r"(b), "l"(a64));
  o[45] = r64;
  asm("add.s64 %0, %1, -7;" : "=l"(s64) : "l"(static_cast<long long>(a64)));
  o[46] = static_cast<unsigned long long>(s64);
  unsigned t;
  asm("{\n\t.reg .u32 c, n;\n\tmov.u32 %0, %%tid.x;\n\tmov.u32 c, %%ctaid.x;\n\tmov.u32 n, %%ntid.x;\n"
      "\tmad.lo.u32 %0, c, n, %0;\n\t}"
      : "=r"(t));
  o[47] = t + 1000000u * (i == static_cast<int>(t) ? 1u : 0u);
}

__global__ void floats(const float* X, const float* Y, const float* Z, const double* D, float* out,
                       double* dout) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  const float x = X[i], y = Y[i], z = Z[i];
  float* o = out + static_cast<size_t>(i) * kFloat;
  float r;
  asm("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[0] = r;
  asm("add.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[1] = r;
  asm("add.rm.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[2] = r;
  asm("add.rp.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[3] = r;
  asm("sub.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[4] = r;
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[5] = r;
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[6] = r;
  asm("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[7] = r;
  asm("div.rp.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  o[8] = r;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z));
  o[9] = r;
  asm("fma.rm.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z));
  o[10] = r;
  asm("rcp.rn.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[11] = r;
  asm("sqrt.rn.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[12] = r;
  asm("sqrt.rz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[13] = r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[14] = r;
  asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[15] = r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[16] = r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[17] = r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[18] = r;
  asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[19] = r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[20] = r;
  asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[21] = r;
  asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[22] = r;
  asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[23] = r;
  asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  o[24] = r;
  asm("add.rn.f32 %0, %1, 0f3F800000;" : "=f"(r) : "f"(x));
  o[25] = r;
  unsigned u;
  asm("mov.b32 %0, %1;" : "=r"(u) : "f"(x));
  o[26] = static_cast<float>(u >> 9);
  asm("mov.b32 %0, %1;" : "=f"(r) : "r"(0x40490fdbu ^ (u & 0xff)));
  o[27] = r;
  // Conversions: float to integer in each rounding, integer to float, double to float.
  int si;
  unsigned ui;
  long long sl;
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(si) : "f"(x));
  o[28] = __int_as_float(si);
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(si) : "f"(x));
  o[29] = __int_as_float(si);
  asm("cvt.rmi.u32.f32 %0, %1;" : "=r"(ui) : "f"(x));
  o[30] = __uint_as_float(ui);
  asm("cvt.rpi.s64.f32 %0, %1;" : "=l"(sl) : "f"(x));
  o[31] = __int_as_float(static_cast<int>(sl ^ (sl >> 32)));
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(r) : "r"(__float_as_int(y)));
  o[32] = r;
  asm("cvt.rz.f32.u32 %0, %1;" : "=f"(r) : "r"(__float_as_uint(y)));
  o[33] = r;
  asm("cvt.rm.f32.s64 %0, %1;" : "=f"(r) : "l"(static_cast<long long>(__float_as_uint(y)) << 20));
  o[34] = r;
  asm("cvt.rz.f32.f64 %0, %1;" : "=f"(r) : "d"(D[i]));
  o[35] = r;
  // 16-bit floats: cvt against cuda_fp16.h's and cuda_bf16.h's conversions.
  unsigned short h, bh;
  unsigned pair;
  float back;
  int differ16 = 0;
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  differ16 += h != __half_as_ushort(__float2half_rz(x));
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(bh) : "f"(y));
  differ16 += bh != __bfloat16_as_ushort(__float2bfloat16_rn(y));
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(pair) : "f"(x), "f"(y));
  differ16 += pair != (static_cast<unsigned>(__half_as_ushort(__float2half_rn(x))) << 16 |
                       __half_as_ushort(__float2half_rn(y)));
  asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(h));
  differ16 += __float_as_uint(back) != __float_as_uint(__half2float(__ushort_as_half(h)));
  o[36] = static_cast<float>(h);
  o[37] = static_cast<float>(bh);
  o[38] = static_cast<float>(pair >> 16);
  o[39] = static_cast<float>(differ16);
  const double d = D[i], e = D[(i + 1) % kN];
  double q;
  asm("add.rm.f64 %0, %1, %2;" : "=d"(q) : "d"(d), "d"(e));
  dout[4 * i + 0] = q;
  asm("fma.rp.f64 %0, %1, %2, %1;" : "=d"(q) : "d"(d), "d"(e));
  dout[4 * i + 1] = q;
  asm("div.rz.f64 %0, %1, %2;" : "=d"(q) : "d"(d), "d"(e));
  dout[4 * i + 2] = q;
  asm("sqrt.rn.f64 %0, %1;" : "=d"(q) : "d"(d));
  dout[4 * i + 3] = q;
}

// ---- Host references: the PTX ISA's definitions ------------------------------------------
unsigned long long bits_of(unsigned long long v, unsigned n) { return n >= 64 ? v : v & ((1ull << n) - 1); }

unsigned long long bfe_ref(unsigned long long a, unsigned b, unsigned c, unsigned width, bool is_signed) {
  const unsigned msb = width - 1, pos = b & 0xff, len = c & 0xff;
  unsigned sbit = 0;
  if (is_signed && len != 0) sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
  unsigned long long d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    unsigned bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= static_cast<unsigned long long>(bit) << i;
  }
  return d;
}

unsigned bfind_ref(unsigned long long a, unsigned width, bool is_signed) {
  if (is_signed && ((a >> (width - 1)) & 1)) a = bits_of(~a, width);
  for (int i = width - 1; i >= 0; --i)
    if ((a >> i) & 1) return i;
  return 0xffffffffu;
}

unsigned long long reference(int k, unsigned a, unsigned b, unsigned c, bool* known) {
  *known = true;
  const unsigned long long a64 = (static_cast<unsigned long long>(b) << 32) | a;
  const unsigned long long ab = a64;
  auto lop3 = [&](unsigned lut) {
    unsigned r = 0;
    for (int bit = 0; bit < 32; ++bit) {
      unsigned idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
      r |= ((lut >> idx) & 1) << bit;
    }
    return r;
  };
  switch (k) {
    case 0: return lop3(0x96);
    case 1: return lop3(0xE8);
    case 2: return lop3(0xCA);
    case 3: return lop3(0x01);
    case 4: return lop3(0x3C);
    case 5: return bfe_ref(a, b & 0x12f, c & 0x13f, 32, false);
    case 6: return bits_of(bfe_ref(a, b & 0x3f, c & 0x3f, 32, true), 32);
    case 7: {
      unsigned pos = c & 0x3f, len = (c >> 8) & 0x13f & 0xff, f = b;
      for (unsigned i = 0; i < len && pos + i <= 31; ++i) f = (f & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
      return f;
    }
    case 8: return bfind_ref(a >> (c & 31), 32, false);
    case 9: return bfind_ref(static_cast<unsigned>(static_cast<int>(a) >> (c & 31)), 32, true);
    case 10: {
      unsigned p = bfind_ref(a >> (c & 31), 32, false);
      return p == 0xffffffffu ? p : 31 - p;
    }
    case 11: {
      unsigned r = 0;
      for (int n = 0; n < 4; ++n) {
        unsigned sel = (c >> (4 * n)) & 15, byte = (ab >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * n);
      }
      return r;
    }
    case 12: return static_cast<unsigned>((ab << ((c & 63) & 31)) >> 32);
    case 13: return static_cast<unsigned>(((c & 63) >= 32 ? 0 : ab << (c & 63)) >> 32 | ((c & 63) >= 32 ? a : 0));
    case 14: return static_cast<unsigned>(ab >> ((c & 63) & 31));
    case 15: return (c & 63) >= 32 ? b : static_cast<unsigned>(ab >> (c & 63));
    case 16: return (c & 63) >= 32 ? 0 : a << (c & 63);
    case 17: return (c & 63) >= 32 ? 0 : a >> (c & 63);
    case 18: return static_cast<unsigned>((c & 63) >= 32 ? (static_cast<int>(a) < 0 ? -1 : 0) : static_cast<int>(a) >> (c & 63));
    case 19: return __builtin_popcount(a >> (c & 31));
    case 20: return (a >> (c & 31)) == 0 ? 32 : __builtin_clz(a >> (c & 31));
    case 21: {
      unsigned r = 0;
      for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1) << (31 - i);
      return r;
    }
    case 22: return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
    case 23: return static_cast<unsigned>(static_cast<unsigned long long>(static_cast<long long>(static_cast<int>(a)) * static_cast<int>(b)) >> 32);
    case 24: return static_cast<unsigned>(((static_cast<unsigned long long>(a) * b) >> 32) + c);
    case 25: return a * b + c;
    case 26: return static_cast<unsigned>(static_cast<int>(a) < static_cast<int>(b) ? a : b);
    case 27: return a > b ? a : b;
    case 28: return 0u - a;
    case 29: return static_cast<int>(a) < 0 ? 0u - a : a;
    case 30: return ~a;
    case 31: return a - b;
    case 32: return ((a ^ b) & c) | 0x80000001u;
    case 33: return static_cast<unsigned long long>(a) * b;
    case 34: return static_cast<unsigned long long>(static_cast<long long>(static_cast<int>(a)) * static_cast<int>(b));
    case 35: return static_cast<unsigned long long>((static_cast<unsigned __int128>(a64) * (a64 * c + b)) >> 64);
    case 36: return bfe_ref(a64, b & 0x7f, c & 0x7f, 64, false);
    case 37: return bfe_ref(a64, b & 0x7f, c & 0x7f, 64, true);
    case 38: return bfind_ref(static_cast<unsigned long long>(static_cast<long long>(a64) >> (c & 63)), 64, true);
    case 39: return (a64 >> (c & 63)) == 0 ? 64 : __builtin_clzll(a64 >> (c & 63));
    case 40: return __builtin_popcountll(a64);
    case 41: {
      unsigned long long r = 0;
      for (int i = 0; i < 64; ++i) r |= ((a64 >> i) & 1) << (63 - i);
      return r;
    }
    case 42: return (c & 127) >= 64 ? 0 : a64 << (c & 127);
    case 43: {
      unsigned long long v = a64 * 3;
      return (v << 32) | (v >> 32);
    }
    case 44: return (static_cast<unsigned long long>(a) << 32) | c;
    case 45: return static_cast<unsigned long long>(a) * b + a64;
    case 46: return a64 - 7;
    default: *known = false; return 0;
  }
}

unsigned long long fnv(const void* p, size_t n, unsigned long long h = 0xcbf29ce484222325ull) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

int main() {
  static unsigned A[kN], B[kN], C[kN];
  static float X[kN], Y[kN], Z[kN];
  static double D[kN];
  const unsigned edges[] = {0u, 1u, 2u, 31u, 32u, 33u, 63u, 64u, 0x7fu, 0x80u, 0xffu, 0x100u, 0x7fffffffu,
                            0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x12345678u, 0xdeadbeefu};
  const unsigned fedges[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x3f800000u,
                             0xbf800000u, 0x3f7fffffu, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,
                             0x7fc00000u, 0x42f60000u, 0xc2fc0000u, 0x43000000u, 0xc3010000u, 0x40490fdbu,
                             0x4b800000u, 0x34000000u};
  const int ne = sizeof edges / sizeof edges[0], nf = sizeof fedges / sizeof fedges[0];
  unsigned long long seed = 88172645463325252ull;
  auto next = [&seed]() {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  for (int i = 0; i < kN; ++i) {
    const unsigned long long r = next(), q = next();
    if (i < ne * ne) {
      A[i] = edges[i % ne];
      B[i] = edges[i / ne];
      C[i] = static_cast<unsigned>(r);
    } else {
      A[i] = static_cast<unsigned>(r);
      B[i] = static_cast<unsigned>(r >> 32);
      C[i] = static_cast<unsigned>(q);
    }
    unsigned xb, yb, zb;
    if (i < nf * nf) {
      xb = fedges[i % nf];
      yb = fedges[i / nf];
      zb = fedges[(i * 7) % nf];
    } else {
      xb = static_cast<unsigned>(q >> 32);
      yb = static_cast<unsigned>(q);
      zb = static_cast<unsigned>(r >> 16);
      if (i % 4 == 1) xb = (xb & 0x807fffffu) | 0x3f000000u;  // near one: ex2, lg2, sin
      if (i % 4 == 2) yb = (yb & 0x80ffffffu) | 0x3f000000u;
    }
    memcpy(&X[i], &xb, 4);
    memcpy(&Y[i], &yb, 4);
    memcpy(&Z[i], &zb, 4);
    unsigned long long db = next();
    if (i % 3 == 0) db = (db & 0x800fffffffffffffull) | 0x3ff0000000000000ull;
    memcpy(&D[i], &db, 8);
  }
  unsigned *dA, *dB, *dC;
  float *dX, *dY, *dZ, *dF;
  double *dD, *dDout;
  unsigned long long* dI;
  cudaMalloc(&dA, sizeof A);
  cudaMalloc(&dB, sizeof B);
  cudaMalloc(&dC, sizeof C);
  cudaMalloc(&dX, sizeof X);
  cudaMalloc(&dY, sizeof Y);
  cudaMalloc(&dZ, sizeof Z);
  cudaMalloc(&dD, sizeof D);
  cudaMalloc(&dI, sizeof(unsigned long long) * kN * kInt);
  cudaMalloc(&dF, sizeof(float) * kN * kFloat);
  cudaMalloc(&dDout, sizeof(double) * kN * 4);
  cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice);
  cudaMemcpy(dX, X, sizeof X, cudaMemcpyHostToDevice);
  cudaMemcpy(dY, Y, sizeof Y, cudaMemcpyHostToDevice);
  cudaMemcpy(dZ, Z, sizeof Z, cudaMemcpyHostToDevice);
  cudaMemcpy(dD, D, sizeof D, cudaMemcpyHostToDevice);
  integers<<<kN / 128, 128>>>(dA, dB, dC, dI);
  floats<<<kN / 128, 128>>>(dX, dY, dZ, dD, dF, dDout);
  static unsigned long long I[kN * kInt];
  static float F[kN * kFloat];
  static double DO[kN * 4];
  cudaMemcpy(I, dI, sizeof I, cudaMemcpyDeviceToHost);
  cudaMemcpy(F, dF, sizeof F, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(DO, dDout, sizeof DO, cudaMemcpyDeviceToHost);
  printf("kernels: %s\n", cudaGetErrorString(err));
  for (int k = 0; k < kInt; ++k) {
    unsigned long long h = 0xcbf29ce484222325ull;
    int wrong = 0, first = -1;
    for (int i = 0; i < kN; ++i) {
      h = fnv(&I[i * kInt + k], 8, h);
      bool known;
      const unsigned long long want = reference(k, A[i], B[i], C[i], &known);
      if (known && want != I[i * kInt + k]) {
        if (first < 0) first = i;
        ++wrong;
      }
    }
    printf("int %2d: %016llx, %d differ from the ISA", k, h, wrong);
    if (first >= 0) {
      bool known;
      printf(" (first a %08x b %08x c %08x: %llx, not %llx)", A[first], B[first], C[first],
             I[first * kInt + k], reference(k, A[first], B[first], C[first], &known));
    }
    printf("\n");
  }
  printf("int 47 (tid + ctaid * ntid): %s\n", I[47] == 1000000u && I[(kN - 1) * kInt + 47] == 1000000u + kN - 1 ? "right" : "wrong");
  int differ16 = 0;
  for (int i = 0; i < kN; ++i) differ16 += static_cast<int>(F[i * kFloat + 39]);
  printf("16-bit float conversions that differ from cuda_fp16.h's and cuda_bf16.h's: %d\n", differ16);
  for (int k = 0; k < 39; ++k) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (int i = 0; i < kN; ++i) h = fnv(&F[i * kFloat + k], 4, h);
    printf("float %2d: %016llx\n", k, h);
  }
  for (int k = 0; k < 4; ++k) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (int i = 0; i < kN; ++i) h = fnv(&DO[4 * i + k], 8, h);
    printf("double %d: %016llx\n", k, h);
  }
  // A few values in the clear, for reading a difference.
  for (int i = 0; i < 6; ++i) {
    unsigned u[6];
    memcpy(u, &F[i * kFloat + 14], 4);
    memcpy(u + 1, &F[i * kFloat + 17], 4);
    memcpy(u + 2, &F[i * kFloat + 18], 4);
    memcpy(u + 3, &F[i * kFloat + 21], 4);
    memcpy(u + 4, &F[i * kFloat + 22], 4);
    memcpy(u + 5, &F[i * kFloat + 19], 4);
    unsigned xb;
    memcpy(&xb, &X[i], 4);
    printf("x %08x: rcp %08x ex2 %08x %08x sin %08x %08x lg2 %08x\n", xb, u[0], u[1], u[2], u[3], u[4], u[5]);
  }
  return 0;
}
