// cuda_emu_texture.cpp: the runtime half of the emulator's texture and
// surface objects (declarations in cuda_texture.h), compiled once into
// cuda_emu_texture.o like cuda_emu.cpp.
//
// Hand-written from the CUDA runtime API reference and the programming
// guide's texture-fetching appendix; where those leave the arithmetic open,
// from measurements on an H200 (tests/cuda/tex_*.cu, surface_*.cu, and a
// fitting run over 4096 random 1D and 2D samples each):
//
// - A normalized coordinate u becomes fixed point with 21 fractional bits,
//   rounded down (q = floor(u * 2^21)); the texel-space coordinate is then
//   q * N / 2^21, exactly. An unnormalized coordinate is used as it is.
//   Wrap and mirror work on q (normalized coordinates only; unnormalized
//   ones clamp, as the H200 did).
// - Point sampling takes floor(x). Linear filtering takes x - 0.5, its floor
//   i0 and its fraction rounded to 1/256, halves up: a = floor(f * 256 + 1/2)
//   (the 9-bit weight of the programming guide).
// - Weights: ab = round(a * b / 256) and (256 - a - b + ab, a - ab, b - ab,
//   ab), each in 1/256. A 1D texture is one row sampled at y = 0 (b = 128
//   between a row -1 and row 0, which only shows with border addressing in
//   y); with clamping that is (256 - a, a).
// - Float texels: each texel that has a non-zero weight takes part in the
//   exponent E of the largest one; every texel's 24-bit significand is
//   aligned to 28 bits below 2^E, cut toward zero, multiplied by its weight
//   and summed exactly; the sum is rounded to float, halves away from zero.
//   That reproduced all 4096 + 4096 random samples bit for bit.
// - 8- and 16-bit integers read as normalized floats: a point read is
//   v / 255 (65535, 127, 32767) in float, signed ones clamped to -1. Linear
//   filtering runs on 16 bits: e = v * 257 (uchar) or v (ushort, short),
//   N = floor((sum e_i w_i + 128) / 256), result N / 65535 (N / 32767,
//   clamped to -1). Signed 8-bit texels are summed as they are (-128 too):
//   R = sum v_i w_i, N = floor((258 R + 32 floor(R / 4096) + 128) / 256),
//   clamped to -32767, result N / 32767 (every R from -32768 to 32512
//   measured on 1D ramps, and 1.3 million random 1D, 2D and 3D samples:
//   tests/cuda/tex_snorm8_linear.cu, tex_char_linear.cu).
// - Trilinear filtering (tex3D, tests/cuda/tex3d_*.cu; weights read off
//   296608 one-hot samples, 100000 random samples per texel type, no miss):
//   the three 8-bit weights a, b, c as above; z splits 256 exactly into
//   slices S0 = 256 - c and S1 = c; x splits each slice S as A =
//   floor((S a + 128) / 256) (column x + 1) and S - A; y splits column
//   S - A as floor(((S - A) b + 127) / 256) (halves down) and column A as
//   floor((A b + 128) / 256) (halves up; down when a = 256). With clamp
//   addressing (or unnormalized coordinates, which clamp) a coordinate
//   past the first or last texel centre of a dimension gets weight 0 there
//   (both texels are the same one; in 2D that is invisible, in 3D the
//   rounded splits show it). Integer texels then filter as above with the
//   eight weights. Float texels (tests/cuda/fitting): each z slice's texels
//   are aligned 28 bits below that slice's largest exponent, cut toward
//   zero, times their weights, and summed exactly. The two slices' sums
//   are then added on a grid the larger slice exponent sets: with b that
//   exponent biased as a float's (b = 127 for [1, 2)), the grid is
//   2^(4 floor(b / 4) - 162), which is the larger slice's own grid (its
//   exponent minus 36) or up to 3 bits finer: the H200 adds in steps of
//   four binary exponents. The other slice's sum is floored onto that grid
//   (toward minus infinity), and the total rounded to float, halves away.
//   That reproduced every one of 5136384 samples: tex3d_fit.cu's 786432
//   random ones, tex3d_slices.cu's and tex3d_slices_bits.cu's slices of
//   equal texels, and tex3d_tie.cu's, where one slice sits on a rounding
//   tie and the other, of the other sign, is scanned down to nothing (the
//   threshold below which it vanishes follows the larger exponent modulo 4
//   and nothing else). Adding the slices exactly had missed 39199 of them.
// - Float texels that are not finite normal numbers or zeros
//   (tests/cuda/tex_nonfinite_linear.cu): a subnormal texel filters as a
//   zero of its sign; among the texels with a non-zero weight a NaN, or
//   infinities of both signs, give the NaN 0x7fffffff and one infinity
//   gives itself; zeros alone give -0 only if all are -0; texels that
//   cancel exactly give +0; a result below the normal range is a zero of
//   its sign.
// - Mirror addressing on normalized coordinates in 3D: the weights come
//   from the coordinate as it is, unreflected, and the mirror applies to the
//   texel indices (period 2n: -1 is 0, n is n - 1): 262144 samples of 8-bit
//   texels, no miss. (Reflecting q first, as in 2D, missed about 9%.)
// - tex1Dfetch out of range returns zeros; a layer index is unsigned and
//   clamped to the last layer.
// - Cubemaps (tests/cuda/tex_cubemap*.cu, 3072 directions x 19 modes, no
//   miss): the face by the major axis (ties: z over y over x), face
//   coordinates (RN(s * RN(1/|m|)) + 1) / 2 exactly, then sampled as a 2D
//   layer with normalized coordinates whatever the description says.
//   Without seamlessCubemap filtering stays inside the face (its address
//   modes as in 2D); with it, texels past an edge come from the neighbouring
//   face and a cube corner's missing texel gives its weight to the other
//   three (see the fetch).
// - Surfaces: x is in bytes; Zero drops writes and reads zeros out of range,
//   Clamp clamps the element index, Trap stops the kernel with error 700.
//
// What it refuses at run time, naming the line: linear filtering of half-float
// texels beside a border colour no half holds, sRGB
// textures, anisotropy,
// resource views, a non-zero border colour except on float textures, a fetch type that
// does not match the texture's format, a destroyed or unknown object.
#include "cuda_runtime.h"
#include "cuda_emu_fp16_core.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace cuda_emu {
// Hooks in cuda_emu.cpp.
cudaError_t texture_record(cudaError_t e);
cudaError_t texture_sticky();
[[noreturn]] void refuse_feature(const char* file, int line, const char* what);
[[noreturn]] void texture_fault(const char* file, int line, const char* what);
long long texture_alloc_offset(const void* p, size_t n);
}  // namespace cuda_emu

// The shim's cudaArray: texels row by row, rows slice by slice (slices are
// the z planes of a 3D array or the layers of a layered one).
struct cudaArray {
  cudaChannelFormatDesc desc;
  cudaExtent extent;  // as allocated
  unsigned flags;
  int dims;      // 1, 2 or 3
  bool layered;  // cudaArrayLayered
  bool cubemap;  // cudaArrayCubemap: square slices, six per cube
  size_t nx, ny, nz;  // texels per row, rows, slices (all at least 1)
  size_t elem;        // bytes per texel
  std::vector<unsigned char> data;
  unsigned char* at(size_t x, size_t y, size_t z) { return &data[((z * ny + y) * nx + x) * elem]; }
};

namespace cuda_emu {
namespace {

using ::cuda_emu::texture_record;

// ---- Channel formats -----------------------------------------------------------------
struct Format {
  int channels = 0;
  int bits = 0;
  cudaChannelFormatKind kind = cudaChannelFormatKindNone;
  size_t bytes() const { return static_cast<size_t>(channels) * bits / 8; }
};

// The format a description names, or channels 0 when it names none the
// runtime accepts: 1, 2 or 4 equal channels of 8, 16 or 32 bits (float: 16
// or 32).
Format format_of(const cudaChannelFormatDesc& d) {
  Format f;
  const int c[4] = {d.x, d.y, d.z, d.w};
  int n = 0;
  while (n < 4 && c[n] != 0) ++n;
  for (int k = n; k < 4; ++k)
    if (c[k] != 0) return Format{};
  if (n == 0 || n == 3) return Format{};
  for (int k = 1; k < n; ++k)
    if (c[k] != c[0]) return Format{};
  const int b = c[0];
  if (d.f == cudaChannelFormatKindFloat) {
    if (b != 16 && b != 32) return Format{};
  } else if (d.f == cudaChannelFormatKindSigned || d.f == cudaChannelFormatKindUnsigned) {
    if (b != 8 && b != 16 && b != 32) return Format{};
  } else {
    return Format{};
  }
  f.channels = n;
  f.bits = b;
  f.kind = d.f;
  return f;
}

std::set<cudaArray*> g_arrays;

bool live(const cudaArray* a) { return a && g_arrays.count(const_cast<cudaArray*>(a)) != 0; }

// ---- Copies between memory and arrays ----------------------------------------------------
// Moves n bytes between a program pointer and array storage through the
// public cudaMemcpy, which checks the device side, honours a sticky error
// and lifts bounds-check protection while it copies.
cudaError_t move_in(unsigned char* array_bytes, const void* src, size_t n, cudaMemcpyKind kind) {
  cudaMemcpyKind k = cudaMemcpyHostToHost;
  if (kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDeviceToHost) k = cudaMemcpyDeviceToHost;
  else if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault && kind != cudaMemcpyHostToHost)
    return texture_record(cudaErrorInvalidMemcpyDirection);
  return cudaMemcpy(array_bytes, src, n, k);
}
cudaError_t move_out(void* dst, const unsigned char* array_bytes, size_t n, cudaMemcpyKind kind) {
  cudaMemcpyKind k = cudaMemcpyHostToHost;
  if (kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyHostToDevice) k = cudaMemcpyHostToDevice;
  else if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDefault && kind != cudaMemcpyHostToHost)
    return texture_record(cudaErrorInvalidMemcpyDirection);
  return cudaMemcpy(dst, array_bytes, n, k);
}

// ---- Texture and surface objects ---------------------------------------------------------
struct Object {
  bool surface = false;
  cudaResourceDesc res{};
  cudaTextureDesc td{};
  Format format;
  cudaArray* array = nullptr;        // array resources
  const unsigned char* base = nullptr;  // linear and pitched resources
  size_t pitch = 0;                  // bytes per row (pitched)
  size_t count = 0;                  // texels (linear)
  size_t nx = 1, ny = 1, nz = 1;     // texels per row, rows, slices
};

// Handle h names g_objects[h - 1]; destroyed objects leave a null.
std::vector<Object*> g_objects;

Object* object_of(unsigned long long h) {
  if (h == 0 || h > g_objects.size()) return nullptr;
  return g_objects[h - 1];
}

[[noreturn]] void refuse(const char* file, int line, const std::string& what) {
  refuse_feature(file, line, what.c_str());
}

[[noreturn]] void refuse_unheld_border(const char* file, int line, const char* name) {
  refuse(file, line, std::string("linear filtering of half-float texels in ") + name +
                         " beside a border colour that is not a half value (not measured on the GPU)");
}

bool is_zero_border(const cudaTextureDesc& td) {
  for (float c : td.borderColor)
    if (c != 0.0f) return false;
  return true;
}

// ---- Texel values ---------------------------------------------------------------------------
// One texel's channels, as the fetch returns them before filtering: raw
// integers (element-type reads of integer formats) or floats.
struct Texel {
  float f[4] = {0, 0, 0, 0};
  long long i[4] = {0, 0, 0, 0};  // the integer value (sign-extended), for integer formats
};

// A half-float texel as a float: its bits widened, a NaN's payload kept (the H200
// read 0x7e00 as 0x7fc00000 and the signalling 0x7c01 as 0x7f802000, tests/cuda/tex_half.cu).
float widen_half(uint16_t h) {
  if ((h & 0x7c00u) != 0x7c00u) return fp::Half::to_float(h);  // exact
  const uint32_t u = (static_cast<uint32_t>(h & 0x8000u) << 16) | 0x7f800000u | (static_cast<uint32_t>(h & 0x3ffu) << 13);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

Texel read_texel(const Format& fmt, const unsigned char* p) {
  Texel t;
  for (int c = 0; c < fmt.channels; ++c) {
    const unsigned char* q = p + c * fmt.bits / 8;
    long long v = 0;
    if (fmt.kind == cudaChannelFormatKindFloat && fmt.bits == 16) {
      uint16_t h;
      memcpy(&h, q, 2);
      t.f[c] = widen_half(h);
      continue;
    }
    if (fmt.kind == cudaChannelFormatKindFloat) {
      memcpy(&t.f[c], q, 4);
      continue;
    }
    if (fmt.bits == 8) v = fmt.kind == cudaChannelFormatKindSigned ? static_cast<long long>(*reinterpret_cast<const signed char*>(q)) : *q;
    if (fmt.bits == 16) {
      uint16_t u;
      memcpy(&u, q, 2);
      v = fmt.kind == cudaChannelFormatKindSigned ? static_cast<long long>(static_cast<int16_t>(u)) : u;
    }
    if (fmt.bits == 32) {
      uint32_t u;
      memcpy(&u, q, 4);
      v = fmt.kind == cudaChannelFormatKindSigned ? static_cast<long long>(static_cast<int32_t>(u)) : u;
    }
    t.i[c] = v;
  }
  return t;
}

// A point read as normalized float: v / max, signed values clamped to -1.
float normalized(const Format& fmt, long long v) {
  const bool s = fmt.kind == cudaChannelFormatKindSigned;
  const float max = fmt.bits == 8 ? (s ? 127.0f : 255.0f) : (s ? 32767.0f : 65535.0f);
  float r = static_cast<float>(v) / max;
  return r < -1.0f ? -1.0f : r;
}

// ---- The float filter (see the top of the file) ------------------------------------------------
// Rounds v * 2^e to float, halves away from zero, v != 0; a result below
// the normal range is a zero of its sign (the H200 flushed them:
// tests/cuda/tex_nonfinite_linear.cu).
float round_away(__int128 v, int e) {
  const bool neg = v < 0;
  unsigned __int128 a = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  const unsigned long long hi = static_cast<unsigned long long>(a >> 64);
  const int nb = hi ? 128 - __builtin_clzll(hi)
                    : 64 - __builtin_clzll(static_cast<unsigned long long>(a));  // a != 0
  const int sh = nb - 24;
  unsigned long long m;
  if (sh > 0) {
    unsigned __int128 rem = a & ((static_cast<unsigned __int128>(1) << sh) - 1);
    m = static_cast<unsigned long long>(a >> sh);
    if (rem >= (static_cast<unsigned __int128>(1) << (sh - 1))) ++m;
  } else {
    m = static_cast<unsigned long long>(a << -sh);
  }
  if (e + sh + (m >> 24 ? 24 : 23) < FLT_MIN_EXP - 1) return neg ? -0.0f : 0.0f;
  float f = ldexpf(static_cast<float>(m), e + sh);
  return neg ? -f : f;
}

// The texels of a linear fetch's footprint, bit k for corner k (bit 0 of k:
// x + 1, bit 1: y + 1, bit 2: z + 1): those whose weight along every one of
// the dims dimensions is not zero, from the 8-bit fractions a. A texel can
// be in the footprint with a rounded weight of 0 (a 3D fetch at 1/256 of
// a slice, halfway in x; a 2D fetch at 1/256 in x and in y): the H200 lets
// an infinity, a NaN or a signed zero there through
// (tests/cuda/tex_nonfinite_linear.cu, tests/cuda/tex2d_zero_weight_specials.cu).
unsigned footprint(const long* a, int dims) {
  unsigned in = 0;
  for (int k = 0; k < (1 << dims); ++k) {
    bool all = true;
    for (int d = 0; d < dims; ++d) all &= ((k >> d) & 1 ? a[d] : 256 - a[d]) != 0;
    if (all) in |= 1u << k;
  }
  return in;
}

// What the float filter makes of texels that are not finite normal numbers
// or zeros (tests/cuda/tex_nonfinite_linear.cu, on the H200): a subnormal
// texel is a zero of its sign. Of the texels in the footprint (bit k of
// in), any NaN, or infinities of both signs, give the NaN 0x7fffffff, an
// infinity that infinity; where all of them are zeros the result is -0 if
// every one is -0, else +0. True, with *out, where that decides the
// result; t gets the flushed texels.
bool special_texels(float* t, unsigned in, int n, float* out) {
  bool nan = false, plus_inf = false, minus_inf = false, zeros = true, minus_zeros = true;
  for (int k = 0; k < n; ++k) {
    if (std::fpclassify(t[k]) == FP_SUBNORMAL) t[k] = std::copysign(0.0f, t[k]);
    if (!(in >> k & 1)) continue;
    nan |= std::isnan(t[k]);
    plus_inf |= t[k] == INFINITY;
    minus_inf |= t[k] == -INFINITY;
    zeros &= t[k] == 0.0f;
    minus_zeros &= t[k] == 0.0f && std::signbit(t[k]);
  }
  if (nan || (plus_inf && minus_inf)) {
    const uint32_t bits = 0x7fffffff;
    memcpy(out, &bits, 4);
  } else if (plus_inf || minus_inf) {
    *out = plus_inf ? INFINITY : -INFINITY;
  } else if (zeros) {
    *out = minus_zeros ? -0.0f : 0.0f;
  } else {
    return false;
  }
  return true;
}

// A normal float t as frexpf splits it, t = m * 2^(e - 24) with 2^23 <= |m| < 2^24,
// read from its bits (frexpf and ldexpf were most of a filtered fetch's time).
inline int float_exponent(float t) {
  uint32_t b;
  memcpy(&b, &t, 4);
  return static_cast<int>((b >> 23) & 0xff) - 126;
}
inline long long float_significand(float t) {
  uint32_t b;
  memcpy(&b, &t, 4);
  const long long m = (b & 0x7fffff) | 0x800000;
  return (b >> 31) ? -m : m;
}

// How many bits below the largest texel exponent the filter keeps: four more
// than the texels' significands have (24 for float, 11 for half texels).
constexpr int kAlignBits = 28;
constexpr int kHalfAlignBits = 15;

// The GPU's exact sum of t[k] * w[k] over n texels (finite, normal or
// zero: see special_texels), in units of 2^(*E - K) times the weights'
// unit: significands aligned K bits below the largest exponent *E of the
// texels with a weight, cut toward zero; *E is INT_MIN when every texel
// is zero.
void aligned_sum(const float* t, const long* w, int n, int K, __int128* sum, int* E) {
  *E = INT_MIN;
  *sum = 0;
  for (int k = 0; k < n; ++k)
    if (w[k] != 0 && t[k] != 0.0f && float_exponent(t[k]) > *E) *E = float_exponent(t[k]);
  for (int k = 0; k < n; ++k) {
    if (w[k] == 0 || t[k] == 0.0f) continue;
    const long long m = float_significand(t[k]);             // t = m * 2^(e - 24)
    const int shift = *E - float_exponent(t[k]) + 24 - K;  // >= -4 (float), >= 9 (half)
    long long a = m < 0 ? -m : m;
    a = shift <= 0 ? a << -shift : (shift >= 63 ? 0 : a >> shift);
    *sum += static_cast<__int128>(m < 0 ? -a : a) * w[k];
  }
}

// sum(t[k] * w[k]) / 2^wbits as the H200's filter computes it, over the
// footprint in (see footprint).
float filter_float(const float* texels, const long* w, unsigned in, int n, int wbits) {
  float t[8], out;
  std::copy(texels, texels + n, t);
  if (special_texels(t, in, n, &out)) return out;
  __int128 sum;
  int E;
  aligned_sum(t, w, n, kAlignBits, &sum, &E);
  if (sum == 0) return 0.0f;  // texels that cancel
  return round_away(sum, E - kAlignBits - wbits);
}

// Rounds v * 2^e (v != 0) to a half, halves away from zero, onto the half grid down
// to its subnormal spacing 2^-24 (which the GPU keeps, unlike float results); the
// half's bits.
uint16_t round_half_away(long long v, int e) {
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  const unsigned long long a = v < 0 ? 0ull - static_cast<unsigned long long>(v) : v;
  const int nb = 64 - __builtin_clzll(a);   // a * 2^e is in [2^(nb - 1 + e), 2^(nb + e))
  int q = std::max(nb + e - 11, -24);       // the exponent of the result's last bit
  const int sh = q - e;
  unsigned long long m;
  if (sh <= 0)
    m = a << -sh;  // exact: q = e + sh only below e where a is small
  else if (sh > 64)
    m = 0;  // a < 2^63 <= 2^(sh - 2): less than half the last bit
  else
    m = (sh == 64 ? 0 : a >> sh) + ((a >> (sh - 1)) & 1);
  if (m == 0) return sign;
  if (m == 2048) {  // rounded up to the next binade
    m = 1024;
    ++q;
  }
  if (m < 1024) return sign | static_cast<uint16_t>(m);  // subnormal (q = -24)
  const int biased = q + 25;                               // m * 2^q = (m / 1024) * 2^(q + 10)
  if (biased >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(biased << 10) | static_cast<uint16_t>(m - 1024);
}

// Half-float texels (tests/cuda/tex_half.cu, on an H100; 1640 filtered values, no
// miss): the float filter on the half's own scale. Significands aligned
// kHalfAlignBits (15: 11 + 4, as float's 28 is 24 + 4) below the largest exponent,
// cut toward zero, times the weights and summed exactly; the sum rounded to half
// precision, halves away from zero, subnormal halves kept; the result that half
// widened. So a small texel beside a large one can vanish: -1 * 255/256 + 65504 *
// 1/256 gives 255.875. A NaN result is the half 0x7fff (read as 0x7fffe000).
float filter_half(const float* texels, const long* w, unsigned in, int n, int wbits) {
  float t[8], out;
  std::copy(texels, texels + n, t);
  if (special_texels(t, in, n, &out)) return std::isnan(out) ? widen_half(0x7fff) : out;
  __int128 sum;
  int E;
  aligned_sum(t, w, n, kHalfAlignBits, &sum, &E);
  if (sum == 0) return 0.0f;
  // |sum| < 2^(15 + wbits + 3): well within 64 bits.
  return widen_half(round_half_away(static_cast<long long>(sum), E - kHalfAlignBits - wbits));
}

// ---- Addressing --------------------------------------------------------------------------------
const int kFix = 21;  // fractional bits of a normalized coordinate
const long long kOne = 1ll << kFix;

// One dimension's coordinate in texel space, in units of 2^-21 texel. With
// reflect false, wrap and mirror addressing leave a normalized coordinate
// as it is (3D linear filtering mirrors the texel indices instead).
bool texel_coordinate(double c, size_t n, const cudaTextureDesc& td, int dim, bool reflect, __int128* x) {
  if (std::isnan(c)) return false;
  const cudaTextureAddressMode mode = td.addressMode[dim];
  if (!td.normalizedCoords) {
    double d = c;
    if (d > 1e12) d = 1e12;
    if (d < -1e12) d = -1e12;
    // (A product by 2^21 is exact, and within 2^62 after the clamp.)
    *x = static_cast<long long>(std::floor(d * static_cast<double>(kOne)));
    return true;
  }
  double u = c;
  if (u > 1e9) u = 1e9;
  if (u < -1e9) u = -1e9;
  long long q = static_cast<long long>(std::floor(u * static_cast<double>(kOne)));
  if (reflect && mode == cudaAddressModeWrap) {
    q = ((q % kOne) + kOne) % kOne;
  } else if (reflect && mode == cudaAddressModeMirror) {
    long long m = ((q % (2 * kOne)) + 2 * kOne) % (2 * kOne);
    q = m < kOne ? m : 2 * kOne - m;
  }
  *x = static_cast<__int128>(q) * static_cast<__int128>(n);
  return true;
}

// The texel index for i in [0, n), or -1 for the border.
long long address(long long i, size_t n, const cudaTextureDesc& td, int dim) {
  const long long N = static_cast<long long>(n);
  const cudaTextureAddressMode mode = td.addressMode[dim];
  if (mode == cudaAddressModeBorder) return (i < 0 || i >= N) ? -1 : i;
  if (mode == cudaAddressModeWrap && td.normalizedCoords) return ((i % N) + N) % N;
  return i < 0 ? 0 : (i >= N ? N - 1 : i);
}

long long floor_div(__int128 x, long long d) {
  const long long lim = 1ll << 60;
  if (x > -lim && x < lim) {
    // The common case, in 64 bits (a 128-bit division is a library call).
    const long long xl = static_cast<long long>(x);
    long long q = xl / d;
    if ((xl % d != 0) && ((xl < 0) != (d < 0))) --q;
    return q;  // |q| <= |x| < 2^60: within the clamp below
  }
  __int128 q = x / d;
  if ((x % d != 0) && ((x < 0) != (d < 0))) --q;
  if (q > (__int128)(1ll << 60)) q = (__int128)(1ll << 60);
  if (q < -(__int128)(1ll << 60)) q = -(__int128)(1ll << 60);
  return static_cast<long long>(q);
}

// One dimension of the linear-filtering footprint at X (units of 2^-21 texel): its
// lower texel, floor(X - 1/2), and the weight of the upper one in 1/256, the
// fraction rounded halves up (so 256 where it rounds up to the whole).
long long footprint_corner(__int128 X, long* weight) {
  const __int128 xb = X - kOne / 2;
  const long long i0 = floor_div(xb, kOne);
  const long long frac = static_cast<long long>(xb - static_cast<__int128>(i0) * kOne);
  *weight = static_cast<long>((frac + (1ll << (kFix - 9))) >> (kFix - 8));
  return i0;
}

const char* shape_name(FetchShape s) {
  switch (s) {
    case kFetch1DLinear: return "tex1Dfetch";
    case kFetch1D: return "tex1D";
    case kFetch2D: return "tex2D";
    case kFetch3D: return "tex3D";
    case kFetch1DLayered: return "tex1DLayered";
    case kFetch2DLayered: return "tex2DLayered";
    case kFetchCubemap: return "texCubemap";
    case kFetchCubemapLayered: return "texCubemapLayered";
    case kFetch2DGather: return "tex2Dgather";
  }
  return "texture fetch";
}

std::string type_name(TexelType t) {
  std::string s = t.kind == cudaChannelFormatKindFloat ? "float"
                  : t.kind == cudaChannelFormatKindSigned ? "signed " + std::to_string(t.bits) + "-bit"
                  : t.kind == cudaChannelFormatKindUnsigned ? "unsigned " + std::to_string(t.bits) + "-bit"
                  : "non-texel";
  return s + " x" + std::to_string(t.count);
}

// ---- Cubemaps ------------------------------------------------------------------------------------
// The face of direction (x, y, z) and its coordinates (u, v) in [0, 1]:
// the programming guide's table (face: major axis m, then s, t):
//   0 +x: x, -z, -y   1 -x: x, z, -y   2 +y: y, x, z   3 -y: y, x, -z
//   4 +z: z, x, -y    5 -z: z, -x, -y
// On a tie between axes z wins over y and y over x. The arithmetic is the
// H200's (fitted to 1536 directions x 4 modes of tests/cuda/tex_cubemap.cu,
// no miss): r = 1/|m| rounded to float, s r rounded to float, then
// u = (s r + 1) / 2 exactly (a double here), made fixed point as any
// normalized coordinate. Exact quotients or float (s/|m| + 1) / 2 missed.
void cube_face(float x, float y, float z, int* face, double* u, double* v) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, s, t;
  if (ax > ay && ax > az) {
    *face = x >= 0 ? 0 : 1;
    m = ax;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay > az) {
    *face = y >= 0 ? 2 : 3;
    m = ay;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    *face = z >= 0 ? 4 : 5;
    m = az;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  const float r = 1.0f / m;
  float sr = s * r, tr = t * r;
  // 0 * inf (a zero or subnormal major axis): the H200 read the face's
  // centre, as if the product were 0 (the zero vector reads face 4's).
  if (std::isnan(sr)) sr = 0;
  if (std::isnan(tr)) tr = 0;
  *u = (static_cast<double>(sr) + 1.0) * 0.5;
  *v = (static_cast<double>(tr) + 1.0) * 0.5;
}

// Texel (i, j) of face f of an n x n cube, i or j possibly one past an edge:
// the texel of the face it lies on (the texel centre as a direction, scaled
// by n to integers, through the major-axis rule), or false at a corner,
// where it lies on no face.
bool cube_neighbour(int f, long long i, long long j, long long n, int* face, long long* ti, long long* tj) {
  if (i >= 0 && i < n && j >= 0 && j < n) {
    *face = f;
    *ti = i;
    *tj = j;
    return true;
  }
  if ((i < 0 || i >= n) && (j < 0 || j >= n)) return false;
  const long long s = 2 * i + 1 - n, t = 2 * j + 1 - n, m = n;  // face coordinates times n
  long long x, y, z;
  switch (f) {
    case 0: x = m, y = -t, z = -s; break;
    case 1: x = -m, y = -t, z = s; break;
    case 2: x = s, y = m, z = t; break;
    case 3: x = s, y = -m, z = -t; break;
    case 4: x = s, y = -t, z = m; break;
    default: x = -s, y = -t, z = -m; break;
  }
  const long long ax = x < 0 ? -x : x, ay = y < 0 ? -y : y, az = z < 0 ? -z : z;
  long long M, S, T;
  if (ax > ay && ax > az) {
    *face = x >= 0 ? 0 : 1;
    M = ax;
    S = x >= 0 ? -z : z;
    T = -y;
  } else if (ay > az) {
    *face = y >= 0 ? 2 : 3;
    M = ay;
    S = x;
    T = y >= 0 ? z : -z;
  } else {
    *face = z >= 0 ? 4 : 5;
    M = az;
    S = z >= 0 ? x : -x;
    T = -y;
  }
  // floor((S / M + 1) / 2 * n), clamped to the face.
  auto index = [&](long long c) {
    long long v = floor_div(static_cast<__int128>(c + M) * n, 2 * M);
    return v < 0 ? 0 : (v >= n ? n - 1 : v);
  };
  *ti = index(S);
  *tj = index(T);
  return true;
}

// The texture description a cubemap face is sampled with: normalized
// coordinates whatever the description says (the H200 gave the same results
// with normalizedCoords 0); seamless filtering ignores the address modes
// (clamp, wrap and border gave the same results; point sampling clamps).
cudaTextureDesc cube_texture_desc(const cudaTextureDesc& td, const char* file, int line, const char* name) {
  cudaTextureDesc c = td;
  c.normalizedCoords = 1;
  (void)file;
  (void)line;
  (void)name;
  if (td.seamlessCubemap) c.addressMode[0] = c.addressMode[1] = cudaAddressModeClamp;
  return c;
}

// ---- Filtering integer texels read as normalized floats (see the top of the file) ---------------------
// sum(v[k] * w[k]) over n texels (border texels given as 0), w in 1/256.
float filter_normalized(const Format& fmt, const long long* v, const long* w, int n) {
  long long sum = 0;
  if (fmt.bits == 8 && fmt.kind == cudaChannelFormatKindSigned) {
    // Signed 8-bit: the 8.8 fixed-point sum R widened to 16 bits as
    // floor((258 R + 32 (R >> 12) + 128) / 256) (R >> 12 floored), clamped
    // to -32767: every R from -32768 to 32512 measured, and 1.3 million
    // random 1D, 2D and 3D samples.
    for (int k = 0; k < n; ++k) sum += v[k] * w[k];
    long long N = (sum * 258 + (sum >> 12) * 32 + 128) >> 8;
    if (N < -32767) N = -32767;
    return static_cast<float>(N) / 32767.0f;
  }
  // 16-bit fixed point (uchar is widened by 257).
  const bool s = fmt.kind == cudaChannelFormatKindSigned;
  for (int k = 0; k < n; ++k) sum += (fmt.bits == 8 ? v[k] * 257 : v[k]) * w[k];
  const long long N = (sum + 128) >> 8;  // floor((sum + 128) / 256)
  const float r = static_cast<float>(N) / (s ? 32767.0f : 65535.0f);
  return r < -1.0f ? -1.0f : r;
}

// Whether a border colour component is a half value. Beside one that is not,
// half texels are not filtered: how the GPU would round it was not measured.
bool half_holds(float v) { return widen_half(fp::Half::from_float(v, fp::kRN)) == v; }

// ---- Trilinear filtering (tex3D, see the top of the file) -----------------------------------------
// Both slices' sums added on the grid 2^g that the larger slice exponent
// sets, the H200 adding in steps of four binary exponents: each slice's sum
// aligned K bits below its largest exponent (its own grid, with the weights'
// 8 bits, is 2^(E - K - 8)); with b the larger E biased as a float's, g =
// 4 floor(b / 4) - 134 - K (162 for float texels, K = 28; 149 for half
// ones, K = 15), the larger slice's own grid or up to 3 bits finer. The
// other slice is floored onto it (an arithmetic shift: toward minus
// infinity). A slice whose texels cancel still sets the grid
// (tests/cuda/tex3d_slice_grid.cu). The total, in units of 2^g, in *total;
// false when no texel with a weight is other than zero.
bool slices_on_one_grid(const float* t, const long* w, int K, __int128* total, int* g) {
  __int128 sum[2];
  int E[2];
  aligned_sum(t, w, 4, K, &sum[0], &E[0]);
  aligned_sum(t + 4, w + 4, 4, K, &sum[1], &E[1]);
  const int hi = std::max(E[0], E[1]);
  if (hi == INT_MIN) return false;
  *g = 4 * ((hi + 126) >> 2) - 134 - K;
  *total = 0;
  for (int z = 0; z < 2; ++z) {
    if (sum[z] == 0) continue;
    const int sh = *g - (E[z] - K - 8);  // the slice's sum is sum[z] * 2^(E - K - 8)
    if (sh <= 0)
      *total += sum[z] * (static_cast<__int128>(1) << -sh);
    else
      *total += sh >= 127 ? (sum[z] < 0 ? -1 : 0) : sum[z] >> sh;  // floor
  }
  return true;
}

// Float texels: the total rounded to float, halves away from zero.
float filter_float_slices(const float* texels, const long* w, unsigned in) {
  float t[8], out;
  std::copy(texels, texels + 8, t);
  if (special_texels(t, in, 8, &out)) return out;
  __int128 total;
  int g;
  if (!slices_on_one_grid(t, w, kAlignBits, &total, &g) || total == 0) return 0.0f;
  return round_away(total, g);
}

// Half texels (tests/cuda/tex3d_half.cu, on the H200: 5120 random samples of
// every exponent, both signs and subnormal halves, no miss): the float rule
// on the half's scale, K = 15 as in filter_half, the total rounded to half
// halves away and widened. (Adding the slices exactly missed 1 of the 5120;
// grids one bit finer, or aligned to other multiples of four, fit too: the
// samples do not tell those apart, and the float rule's is taken.)
float filter_half_slices(const float* texels, const long* w, unsigned in) {
  float t[8], out;
  std::copy(texels, texels + 8, t);
  if (special_texels(t, in, 8, &out)) return std::isnan(out) ? widen_half(0x7fff) : out;
  __int128 total;
  int g;
  if (!slices_on_one_grid(t, w, kHalfAlignBits, &total, &g) || total == 0) return 0.0f;
  // |total| < 2^(16 + 8 + 2 + 3): aligned significands below 2^16, weights
  // summing to 256, the grid at most 3 bits below the larger slice's own.
  return widen_half(round_half_away(static_cast<long long>(total), g));
}

// Mirror addressing of a texel index over the period 2n (-1 is 0, n is n - 1).
long long mirror_index(long long i, long long n) {
  const long long m = ((i % (2 * n)) + 2 * n) % (2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

// Trilinear filtering; X holds the three coordinates in units of 2^-21
// texel (for mirror addressing on normalized coordinates, as if not
// reflected: the H200 takes the weights there and mirrors the texel
// indices, tests/cuda/fitting, 262144 samples, no miss).
bool trilinear(const Object* o, const cudaTextureDesc& td, const __int128* X, float* fres) {
  const Format& fmt = o->format;
  const size_t size[3] = {o->nx, o->ny, o->nz};
  long long i0[3];
  long a[3];
  for (int d = 0; d < 3; ++d) {
    i0[d] = footprint_corner(X[d], &a[d]);
    // Clamped past either edge, both texels of this dimension are the same
    // one and the H200 gave it all the weight (tests/cuda/tex3d_*.cu: with
    // the rounded splits below that is visible). That is clamp addressing
    // (and wrap or mirror on unnormalized coordinates, which clamp); not
    // border, nor wrap or mirror on normalized ones.
    const long long n = static_cast<long long>(size[d]);
    const cudaTextureAddressMode mode = td.addressMode[d];
    const bool clamps = mode == cudaAddressModeClamp || (!td.normalizedCoords && mode != cudaAddressModeBorder);
    if (clamps && (i0[d] < 0 || i0[d] >= n - 1)) a[d] = 0;
  }
  // Weights in 1/256, corner k = (bit 0: x + 1, bit 1: y + 1, bit 2: z + 1):
  // z splits 256 exactly; x splits each slice S as A = round(S a / 256),
  // halves up; y splits column S - A halves down and column A halves up
  // (halves down when a = 256, where column A is the whole slice).
  long w[8];
  const long S[2] = {256 - a[2], a[2]};
  for (int z = 0; z < 2; ++z) {
    const long A = (S[z] * a[0] + 128) >> 8;
    const long col[2] = {S[z] - A, A};
    for (int x = 0; x < 2; ++x) {
      const bool up = x == 1 && a[0] != 256;
      const long B = (col[x] * a[1] + (up ? 128 : 127)) >> 8;
      w[4 * z + x] = col[x] - B;
      w[4 * z + 2 + x] = B;
    }
  }
  Texel t[8];
  bool border[8] = {false, false, false, false, false, false, false, false};
  for (int k = 0; k < 8; ++k) {
    long long i[3];
    for (int d = 0; d < 3; ++d) {
      const long long j = i0[d] + ((k >> d) & 1);
      i[d] = td.normalizedCoords && td.addressMode[d] == cudaAddressModeMirror
                 ? mirror_index(j, static_cast<long long>(size[d]))
                 : address(j, size[d], td, d);
      if (i[d] < 0) border[k] = true;
    }
    if (!border[k]) t[k] = read_texel(fmt, o->array->at(i[0], i[1], i[2]));
  }
  for (int c = 0; c < fmt.channels; ++c) {
    if (fmt.kind == cudaChannelFormatKindFloat) {
      float v[8];
      const bool half = fmt.bits == 16;
      for (int k = 0; k < 8; ++k) {
        v[k] = border[k] ? td.borderColor[c] : t[k].f[c];
        if (half && border[k] && !half_holds(v[k])) return false;
      }
      fres[c] = half ? filter_half_slices(v, w, footprint(a, 3)) : filter_float_slices(v, w, footprint(a, 3));
    } else {
      long long v[8];
      for (int k = 0; k < 8; ++k) v[k] = border[k] ? 0 : t[k].i[c];
      fres[c] = filter_normalized(fmt, v, w, 8);
    }
  }
  return true;
}

}  // namespace

// A fetch's result of `type.count` components into `out`: floats, or integers of
// the type's width (the low bytes of each value).
void write_result(const TexelType& type, bool float_result, const float* fres, const long long* ires,
                  void* out) {
  unsigned char* p = static_cast<unsigned char*>(out);
  for (int c = 0; c < type.count; ++c) {
    if (float_result) {
      memcpy(p + 4 * c, &fres[c], 4);
    } else {
      const int b = type.bits / 8;
      const uint64_t u = static_cast<uint64_t>(ires[c]);
      memcpy(p + b * c, &u, static_cast<size_t>(b));  // little-endian: the low bytes
    }
  }
}

// tex2Dgather: component `comp` of the four texels of the 2D linear-filtering footprint
// at (x, y), whatever the filter mode, as x: (i, j + 1), y: (i + 1, j + 1), z: (i + 1, j),
// w: (i, j), where (i, j) is the footprint's lower corner: filtering's, from the
// coordinate in units of 2^-21 texel (a normalized one cut to 21 bits, then times the
// size, as filtering does, but not reflected), floor(t - 1/2), plus one where the
// weight of the upper texels, rounded to 1/256 halves up, is the whole 256. Wrap and
// mirror then address the texel indices (mirror over the period 2n). A texel past the
// edge is otherwise addressed as filtering addresses it; under border addressing it is
// the border colour's component (0 for integer elements). Fitted on an H100 to
// tests/cuda/tex2d_gather.cu (1274 fetches) and tex2d_gather_edges.cu (3888 fetches
// at and beside half-texel points, widths 3 to 4097): no miss. The float product of
// the coordinate and the size, floored, missed 1399 of the second; without the
// carry, 2483; reflecting the coordinate first missed 66 of the first.
void gather(const Object* o, const Format& fmt, TexelType type, int comp, float x, float y,
            void* out, const char* file, int line) {
  const cudaTextureDesc& td = o->td;
  if (!(o->array->flags & cudaArrayTextureGather))
    refuse(file, line, "tex2Dgather on a texture whose cudaArray was made without cudaArrayTextureGather");
  const bool float_result = fmt.kind == cudaChannelFormatKindFloat || td.readMode == cudaReadModeNormalizedFloat;
  const bool type_ok = type.count == 4 &&
                       (float_result ? (type.kind == cudaChannelFormatKindFloat && type.bits == 32)
                                     : (type.kind != cudaChannelFormatKindFloat && type.bits == fmt.bits));
  if (!type_ok)
    refuse(file, line, "tex2Dgather returning " + type_name(type) + " from a texture of " +
                           std::to_string(fmt.bits) + "-bit " +
                           (fmt.kind == cudaChannelFormatKindFloat ? "float" : "integer") + " texels" +
                           (td.readMode == cudaReadModeNormalizedFloat ? " read as normalized floats" : "") +
                           " (a gather returns a 4-vector of the texel type, or float4)");
  if (comp < 0 || comp >= fmt.channels)
    refuse(file, line, "tex2Dgather of component " + std::to_string(comp) + " of a texture of " +
                           std::to_string(fmt.channels) + "-channel texels (not measured)");
  const size_t size[2] = {o->nx, o->ny};
  const double coord[2] = {x, y};
  long long i0[2];
  for (int d = 0; d < 2; ++d) {
    // Filtering's footprint, from the coordinate unreflected (wrap and mirror apply to
    // the texel indices below), moved up one texel where the weight of its upper
    // texels rounds to the whole 256/256.
    __int128 X;
    if (!texel_coordinate(coord[d], size[d], td, d, false, &X)) refuse(file, line, "tex2Dgather at a NaN coordinate");
    long weight;
    i0[d] = footprint_corner(X, &weight);
    if (weight == 256) ++i0[d];
  }
  // Corner k (bit 0: i + 1, bit 1: j + 1) goes to result component kSlot[k].
  static const int kSlot[4] = {3, 2, 0, 1};
  float fres[4];
  long long ires[4];
  for (int k = 0; k < 4; ++k) {
    long long i[2];
    bool border = false;
    for (int d = 0; d < 2; ++d) {
      const long long j = i0[d] + ((k >> d) & 1);
      i[d] = td.normalizedCoords && td.addressMode[d] == cudaAddressModeMirror
                 ? mirror_index(j, static_cast<long long>(size[d]))
                 : address(j, size[d], td, d);
      if (i[d] < 0) border = true;
    }
    float f = 0;
    long long v = 0;
    if (border) {
      f = td.borderColor[comp];
    } else {
      const Texel t = read_texel(fmt, o->array->at(i[0], i[1], 0));
      v = t.i[comp];
      f = fmt.kind == cudaChannelFormatKindFloat ? t.f[comp] : normalized(fmt, v);
    }
    fres[kSlot[k]] = f;
    ires[kSlot[k]] = v;
  }
  write_result(type, float_result, fres, ires, out);
}

// ---- The fetch -----------------------------------------------------------------------------------
void texture_fetch(cudaTextureObject_t h, FetchShape shape, TexelType type, void* out, int index,
                   float x, float y, float z, int layer, const char* file, int line) {
  const char* name = shape_name(shape);
  Object* o = object_of(h);
  if (!o || o->surface)
    refuse(file, line, std::string(name) + " on " + std::to_string(h) +
                           ", which is no live texture object (never created, or destroyed)");
  const Format& fmt = o->format;
  cudaTextureDesc td = o->td;  // a cubemap fetch adjusts its copy
  // The resource must have the fetch's shape.
  const int rt = o->res.resType;
  bool shape_ok = false;
  int dims = 0;
  switch (shape) {
    case kFetch1DLinear: shape_ok = rt == cudaResourceTypeLinear; break;
    case kFetch1D: shape_ok = o->array && o->array->dims == 1 && !o->array->layered; dims = 1; break;
    case kFetch2D:
      shape_ok = rt == cudaResourceTypePitch2D || (o->array && o->array->dims == 2 && !o->array->layered);
      dims = 2;
      break;
    case kFetch3D: shape_ok = o->array && o->array->dims == 3 && !o->array->layered; dims = 3; break;
    case kFetch1DLayered: shape_ok = o->array && o->array->dims == 1 && o->array->layered; dims = 1; break;
    case kFetch2DLayered:
      shape_ok = o->array && o->array->dims == 2 && o->array->layered && !o->array->cubemap;
      dims = 2;
      break;
    case kFetchCubemap: shape_ok = o->array && o->array->cubemap && !o->array->layered; dims = 2; break;
    case kFetchCubemapLayered: shape_ok = o->array && o->array->cubemap && o->array->layered; dims = 2; break;
    case kFetch2DGather:
      shape_ok = o->array && o->array->dims == 2 && !o->array->layered;
      dims = 2;
      break;
  }
  if (o->array && o->array->cubemap && shape != kFetchCubemap && shape != kFetchCubemapLayered) shape_ok = false;
  if (!shape_ok) refuse(file, line, std::string(name) + " on a texture whose resource has another shape");
  if (o->array && !live(o->array)) refuse(file, line, std::string(name) + " on a texture whose cudaArray was freed");
  if (shape == kFetch2DGather) {
    gather(o, fmt, type, index, x, y, out, file, line);
    return;
  }
  // The result type must match the texture's format and read mode.
  const bool float_result = fmt.kind == cudaChannelFormatKindFloat || td.readMode == cudaReadModeNormalizedFloat;
  const bool type_ok = type.count == fmt.channels &&
                       (float_result ? (type.kind == cudaChannelFormatKindFloat && type.bits == 32)
                                     : (type.kind != cudaChannelFormatKindFloat && type.bits == fmt.bits));
  if (!type_ok)
    refuse(file, line, std::string(name) + " returning " + type_name(type) + " from a texture of " +
                           std::to_string(fmt.channels) + " x " + std::to_string(fmt.bits) + "-bit " +
                           (fmt.kind == cudaChannelFormatKindFloat ? "float" : "integer") + " texels" +
                           (td.readMode == cudaReadModeNormalizedFloat ? " read as normalized floats" : "") +
                           " (the fetch type must match the format)");
  float fres[4] = {0, 0, 0, 0};
  long long ires[4] = {0, 0, 0, 0};
  auto store = [&]() { write_result(type, float_result, fres, ires, out); };
  auto point_value = [&](const Texel& t) {
    for (int c = 0; c < fmt.channels; ++c) {
      if (fmt.kind == cudaChannelFormatKindFloat) fres[c] = t.f[c];
      else if (td.readMode == cudaReadModeNormalizedFloat) fres[c] = normalized(fmt, t.i[c]);
      else ires[c] = t.i[c];
    }
  };
  if (shape == kFetch1DLinear) {
    if (index >= 0 && static_cast<size_t>(index) < o->count) point_value(read_texel(fmt, o->base + index * fmt.bytes()));
    store();
    return;
  }
  // The slice: a layer (clamped, as unsigned) or, for 3D, the z coordinate.
  size_t slice = 0;
  if (shape == kFetch1DLayered || shape == kFetch2DLayered) {
    const unsigned l = static_cast<unsigned>(layer);
    slice = l >= o->nz ? o->nz - 1 : l;
  }
  // A cubemap: the face of the direction's major axis (the programming
  // guide's cubemap table), the face coordinates in [0, 1] as normalized
  // coordinates of that slice.
  const bool cube = shape == kFetchCubemap || shape == kFetchCubemapLayered;
  double cu = 0, cv = 0;
  if (cube) {
    if (std::isnan(x) || std::isnan(y) || std::isnan(z)) refuse(file, line, std::string(name) + " at a NaN coordinate");
    int face;
    cube_face(x, y, z, &face, &cu, &cv);
    if (std::isinf(cu) || std::isinf(cv))
      refuse(file, line, std::string(name) + " of a direction whose major axis is subnormal (not measured)");
    size_t cubes = o->nz / 6;
    size_t l = 0;
    if (shape == kFetchCubemapLayered) {
      const unsigned ul = static_cast<unsigned>(layer);
      l = ul >= cubes ? cubes - 1 : ul;
    }
    slice = 6 * l + static_cast<size_t>(face);
    td = cube_texture_desc(td, file, line, name);
  }
  const size_t size[3] = {o->nx, o->ny, o->nz};
  const double coord[3] = {cube ? cu : x, cube ? cv : y, z};
  auto texel_at = [&](const long long* i) -> const unsigned char* {
    if (o->array) return o->array->at(i[0], dims >= 2 ? i[1] : 0, dims == 3 ? i[2] : slice);
    return o->base + i[1] * o->pitch + i[0] * fmt.bytes();
  };
  // Mirror addressing on normalized coordinates under 3D linear filtering:
  // the weights come from the coordinate as it is, the mirror from the
  // texel indices (trilinear).
  const bool linear3d = dims == 3 && td.filterMode != cudaFilterModePoint;
  __int128 X[3];
  for (int d = 0; d < dims; ++d) {
    const bool reflect = !(linear3d && td.addressMode[d] == cudaAddressModeMirror);
    if (!texel_coordinate(coord[d], size[d], td, d, reflect, &X[d]))
      refuse(file, line, std::string(name) + " at a NaN coordinate");
  }
  if (td.filterMode == cudaFilterModePoint) {
    long long i[3] = {0, 0, 0};
    bool border = false;
    for (int d = 0; d < dims; ++d) {
      i[d] = address(floor_div(X[d], kOne), size[d], td, d);
      if (i[d] < 0) border = true;
    }
    if (border) {
      for (int c = 0; c < fmt.channels; ++c) fres[c] = td.borderColor[c];
    } else {
      point_value(read_texel(fmt, texel_at(i)));
    }
    store();
    return;
  }
  // Linear filtering.
  const bool half = fmt.kind == cudaChannelFormatKindFloat && fmt.bits == 16;
  if (dims == 3) {
    if (!trilinear(o, td, X, fres)) refuse_unheld_border(file, line, name);
    store();
    return;
  }
  // A 1D texture filters as a 2D one of one row sampled at y = 0: with
  // cudaAddressModeBorder in y, half of the weight goes to the border row
  // above it (the H200 returned half the texel values on a 1D border
  // texture, tests/cuda/tex2d_linear_filter.cu).
  size_t size2[2] = {size[0], dims == 1 ? 1 : size[1]};
  if (dims == 1) X[1] = 0;
  const int fdims = 2;
  long long i0[2] = {0, 0};
  long a[2] = {0, 0};
  for (int d = 0; d < fdims; ++d) {
    i0[d] = footprint_corner(X[d], &a[d]);
  }
  // Corner weights in 1/256, corner k = (bit 0: x + 1, bit 1: y + 1).
  long w[4];
  const int corners = 4;
  const long ab = (a[0] * a[1] + 128) >> 8;
  w[0] = 256 - a[0] - a[1] + ab;
  w[1] = a[0] - ab;
  w[2] = a[1] - ab;
  w[3] = ab;
  unsigned in = footprint(a, fdims);
  Texel t[4];
  bool border[4] = {false, false, false, false};
  if (cube && td.seamlessCubemap) {
    // Seamless filtering: a footprint texel past the face's edge is read
    // from the neighbouring face; at a cube corner, where the fourth texel
    // belongs to no face, its weight goes to the other three: round(w / 3)
    // to each of the two beside it, the rest to the one diagonally opposite.
    const long long n = static_cast<long long>(o->nx);
    int missing = -1;
    for (int k = 0; k < corners; ++k) {
      const long long ci = i0[0] + (k & 1), cj = i0[1] + ((k >> 1) & 1);
      int f2;
      long long ti, tj;
      if (!cube_neighbour(static_cast<int>(slice % 6), ci, cj, n, &f2, &ti, &tj)) {
        missing = k;
        continue;
      }
      t[k] = read_texel(fmt, o->array->at(ti, tj, slice - slice % 6 + f2));
    }
    if (missing >= 0) {
      const long share = (w[missing] + 1) / 3;  // w / 3 rounded (never a half)
      for (int k = 0; k < corners; ++k)
        if (k != missing) w[k] += (k == (missing ^ 3)) ? w[missing] - 2 * share : share;
      w[missing] = 0;
      in &= ~(1u << missing);
      t[missing] = t[missing ^ 3];
    }
  } else {
    for (int k = 0; k < corners; ++k) {
      long long i[3] = {0, 0, 0};
      for (int d = 0; d < fdims; ++d) {
        i[d] = address(i0[d] + ((k >> d) & 1), size2[d], td, d);
        if (i[d] < 0) border[k] = true;
      }
      if (!border[k]) t[k] = read_texel(fmt, texel_at(i));
    }
  }
  for (int c = 0; c < fmt.channels; ++c) {
    if (fmt.kind == cudaChannelFormatKindFloat) {
      float v[4];
      for (int k = 0; k < corners; ++k) {
        v[k] = border[k] ? td.borderColor[c] : t[k].f[c];
        if (half && border[k] && !half_holds(v[k])) refuse_unheld_border(file, line, name);
      }
      fres[c] = half ? filter_half(v, w, in, corners, 8) : filter_float(v, w, in, corners, 8);
    } else {
      long long v[4];
      for (int k = 0; k < corners; ++k) v[k] = border[k] ? 0 : t[k].i[c];
      fres[c] = filter_normalized(fmt, v, w, corners);
    }
  }
  store();
}

// ---- Surfaces ----------------------------------------------------------------------------------------
void surface_access(cudaSurfaceObject_t h, int dims, bool layered, TexelType type, void* data,
                    size_t size, bool write, int x, int y, int z, int layer,
                    cudaSurfaceBoundaryMode mode, const char* file, int line) {
  const std::string name = std::string("surf") + std::to_string(dims) + "D" + (layered ? "Layered" : "") +
                           (write ? "write" : "read");
  Object* o = object_of(h);
  if (!o || !o->surface)
    refuse(file, line, name + " on " + std::to_string(h) +
                           ", which is no live surface object (never created, or destroyed)");
  cudaArray* a = o->array;
  if (!live(a)) refuse(file, line, name + " on a surface whose cudaArray was freed");
  if (a->cubemap) refuse(file, line, name + " on a surface over a cubemap array (cubemap surfaces are not emulated)");
  if (a->dims != dims || a->layered != layered)
    refuse(file, line, name + " on a surface whose array has another shape");
  if (size != a->elem)
    refuse(file, line, name + " of " + std::to_string(size) + " bytes on an array of " +
                           std::to_string(a->elem) + "-byte elements");
  (void)type;
  const long long e = static_cast<long long>(a->elem);
  if (x % e != 0) refuse(file, line, name + " at a byte offset x that is not a multiple of the element size");
  long long i[3] = {x / e, y, dims == 3 ? z : layer};
  const long long n[3] = {static_cast<long long>(a->nx), static_cast<long long>(a->ny),
                          static_cast<long long>(a->nz)};
  if (dims < 2) i[1] = 0;
  if (!layered && dims < 3) i[2] = 0;
  bool outside = false;
  for (int d = 0; d < 3; ++d)
    if (i[d] < 0 || i[d] >= n[d]) outside = true;
  if (outside) {
    if (mode == cudaBoundaryModeZero) {
      if (!write) memset(data, 0, size);
      return;
    }
    if (mode == cudaBoundaryModeClamp) {
      for (int d = 0; d < 3; ++d) i[d] = i[d] < 0 ? 0 : (i[d] >= n[d] ? n[d] - 1 : i[d]);
    } else {
      texture_fault(file, line, (name + " out of bounds with cudaBoundaryModeTrap").c_str());
    }
  }
  unsigned char* p = a->at(i[0], i[1], i[2]);
  if (write) memcpy(p, data, size);
  else memcpy(data, p, size);
}

}  // namespace cuda_emu

using cuda_emu::texture_record;

#define CUDA_EMU_TEX_STICKY()                                                        \
  do {                                                                               \
    if (cuda_emu::texture_sticky() != cudaSuccess) return texture_record(cuda_emu::texture_sticky()); \
  } while (0)

// ---- Channel descriptions and arrays -----------------------------------------------------------------
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  cudaChannelFormatDesc d;
  d.x = x;
  d.y = y;
  d.z = z;
  d.w = w;
  d.f = f;
  return d;
}

static cudaError_t make_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent e,
                              unsigned flags, bool three_d) {
  CUDA_EMU_TEX_STICKY();
  if (!array || !desc) return texture_record(cudaErrorInvalidValue);
  *array = nullptr;
  cuda_emu::Format f = cuda_emu::format_of(*desc);
  if (f.channels == 0) return texture_record(cudaErrorInvalidChannelDescriptor);
  if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayCubemap))
    return texture_record(cudaErrorInvalidValue);
  if (e.width == 0) return texture_record(cudaErrorInvalidValue);
  const bool cube = (flags & cudaArrayCubemap) != 0;
  if (cube && (!three_d || e.width != e.height ||
               ((flags & cudaArrayLayered) ? (e.depth == 0 || e.depth % 6 != 0) : e.depth != 6)))
    return texture_record(cudaErrorInvalidValue);
  cudaArray* a = new cudaArray;
  a->desc = *desc;
  a->extent = e;
  a->flags = flags;
  a->layered = (flags & cudaArrayLayered) != 0;
  a->cubemap = cube;
  a->elem = f.bytes();
  a->nx = e.width;
  if (cube) {
    // Stored as the slices of a layered 2D array: face f of cube l is slice 6 l + f.
    a->dims = 2;
    a->ny = e.height;
    a->nz = e.depth;
  } else if (a->layered) {
    if (e.depth == 0) {
      delete a;
      return texture_record(cudaErrorInvalidValue);
    }
    a->dims = e.height == 0 ? 1 : 2;
    a->ny = e.height == 0 ? 1 : e.height;
    a->nz = e.depth;
  } else {
    if (three_d && e.depth != 0 && e.height == 0) {
      delete a;
      return texture_record(cudaErrorInvalidValue);
    }
    a->dims = e.depth != 0 ? 3 : (e.height != 0 ? 2 : 1);
    a->ny = e.height == 0 ? 1 : e.height;
    a->nz = e.depth == 0 ? 1 : e.depth;
  }
  const double bytes = static_cast<double>(a->nx) * a->ny * a->nz * a->elem;
  if (bytes > 64.0 * (1ull << 30)) {
    delete a;
    return texture_record(cudaErrorMemoryAllocation);
  }
  a->data.assign(a->nx * a->ny * a->nz * a->elem, 0);
  cuda_emu::g_arrays.insert(a);
  *array = a;
  return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                            size_t height, unsigned int flags) {
  if (flags & cudaArrayLayered) return texture_record(cudaErrorInvalidValue);
  return make_array(array, desc, make_cudaExtent(width, height, 0), flags, false);
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                              cudaExtent extent, unsigned int flags) {
  return make_array(array, desc, extent, flags, true);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  CUDA_EMU_TEX_STICKY();
  if (array == nullptr) return cudaSuccess;
  if (!cuda_emu::live(array)) return texture_record(cudaErrorInvalidValue);
  cuda_emu::g_arrays.erase(array);
  delete array;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  CUDA_EMU_TEX_STICKY();
  if (!desc || !cuda_emu::live(array)) return texture_record(cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(array)) return texture_record(cudaErrorInvalidValue);
  if (desc) *desc = array->desc;
  if (extent) *extent = array->extent;
  if (flags) *flags = array->flags;
  return cudaSuccess;
}

// ---- Copies into and out of arrays -------------------------------------------------------------------
// Rows of `width` bytes starting at byte wOffset of row hOffset of the
// first slice.
static bool rows_fit(cudaArray_const_t a, size_t wOffset, size_t hOffset, size_t width, size_t height) {
  const size_t row = a->nx * a->elem;
  return wOffset <= row && width <= row - wOffset && hOffset <= a->ny && height <= a->ny - hOffset;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(dst) || (height && !src) || width > spitch || !rows_fit(dst, wOffset, hOffset, width, height))
    return texture_record(cudaErrorInvalidValue);
  for (size_t r = 0; r < height; ++r) {
    cudaError_t e = cuda_emu::move_in(dst->at(0, hOffset + r, 0) + wOffset,
                                      static_cast<const char*>(src) + r * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  cudaMemcpyKind kind) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(src) || (height && !dst) || width > dpitch || !rows_fit(src, wOffset, hOffset, width, height))
    return texture_record(cudaErrorInvalidValue);
  cudaArray* a = const_cast<cudaArray*>(src);
  for (size_t r = 0; r < height; ++r) {
    cudaError_t e = cuda_emu::move_out(static_cast<char*>(dst) + r * dpitch,
                                       a->at(0, hOffset + r, 0) + wOffset, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void* src, size_t spitch, size_t width, size_t height,
                                     cudaMemcpyKind kind, cudaStream_t stream) {
  // Not made a graph node: stop rather than copy at once (cuda_emu_graph.cpp).
  cuda_emu::graph::refuse_capture(stream, "cudaMemcpy2DToArrayAsync");
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  // Not made a graph node: stop rather than copy at once (cuda_emu_graph.cpp).
  cuda_emu::graph::refuse_capture(stream, "cudaMemcpy2DFromArrayAsync");
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

// The deprecated 1D forms (still in CUDA 13.0): `count` bytes from byte
// wOffset of row hOffset, running on into the next rows.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                              size_t count, cudaMemcpyKind kind) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(dst)) return texture_record(cudaErrorInvalidValue);
  const size_t start = (hOffset * dst->nx) * dst->elem + wOffset;
  if (wOffset > dst->nx * dst->elem || start > dst->data.size() || count > dst->data.size() - start)
    return texture_record(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  return cuda_emu::move_in(dst->data.data() + start, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(src)) return texture_record(cudaErrorInvalidValue);
  const size_t start = (hOffset * src->nx) * src->elem + wOffset;
  if (wOffset > src->nx * src->elem || start > src->data.size() || count > src->data.size() - start)
    return texture_record(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  return cuda_emu::move_out(dst, src->data.data() + start, count, kind);
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height, cudaMemcpyKind kind) {
  CUDA_EMU_TEX_STICKY();
  if (!cuda_emu::live(dst) || !cuda_emu::live(src) || !rows_fit(dst, wOffsetDst, hOffsetDst, width, height) ||
      !rows_fit(src, wOffsetSrc, hOffsetSrc, width, height))
    return texture_record(cudaErrorInvalidValue);
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return texture_record(cudaErrorInvalidMemcpyDirection);
  cudaArray* from = const_cast<cudaArray*>(src);
  for (size_t r = 0; r < height; ++r)
    memmove(dst->at(0, hOffsetDst + r, 0) + wOffsetDst, from->at(0, hOffsetSrc + r, 0) + wOffsetSrc, width);
  return cudaSuccess;
}

// cudaMemcpy3D (cuda_emu.cpp) hands a copy with an array on either side here.
cudaError_t cuda_emu::memcpy3d_with_arrays(const cudaMemcpy3DParms* p) {
  CUDA_EMU_TEX_STICKY();
  if (!p) return texture_record(cudaErrorInvalidValue);
  const bool src_array = p->srcArray != nullptr, dst_array = p->dstArray != nullptr;
  if ((src_array && p->srcPtr.ptr) || (dst_array && p->dstPtr.ptr)) return texture_record(cudaErrorInvalidValue);
  if ((src_array && !cuda_emu::live(p->srcArray)) || (dst_array && !cuda_emu::live(p->dstArray)))
    return texture_record(cudaErrorInvalidValue);
  // Widths and x positions are in elements when an array takes part, else in bytes.
  size_t elem = 1;
  if (src_array) elem = p->srcArray->elem;
  if (dst_array) {
    if (src_array && p->dstArray->elem != elem) return texture_record(cudaErrorInvalidValue);
    elem = p->dstArray->elem;
  }
  const size_t rowbytes = p->extent.width * elem;
  const size_t rows = p->extent.height, slices = p->extent.depth;
  if (rowbytes == 0 || rows == 0 || slices == 0) return cudaSuccess;
  auto array_fits = [&](const cudaArray* a, cudaPos pos) {
    return pos.x <= a->nx && p->extent.width <= a->nx - pos.x && pos.y <= a->ny &&
           rows <= a->ny - pos.y && pos.z <= a->nz && slices <= a->nz - pos.z;
  };
  if (src_array && !array_fits(p->srcArray, p->srcPos)) return texture_record(cudaErrorInvalidValue);
  if (dst_array && !array_fits(p->dstArray, p->dstPos)) return texture_record(cudaErrorInvalidValue);
  if (!src_array && (!p->srcPtr.ptr || p->srcPtr.pitch < p->srcPos.x + rowbytes)) return texture_record(cudaErrorInvalidValue);
  if (!dst_array && (!p->dstPtr.ptr || p->dstPtr.pitch < p->dstPos.x + rowbytes)) return texture_record(cudaErrorInvalidValue);
  std::vector<unsigned char> row(rowbytes);
  for (size_t s = 0; s < slices; ++s) {
    for (size_t r = 0; r < rows; ++r) {
      cudaError_t e = cudaSuccess;
      // Into `row`.
      if (src_array) {
        memcpy(row.data(), p->srcArray->at(p->srcPos.x, p->srcPos.y + r, p->srcPos.z + s), rowbytes);
      } else {
        const char* from = static_cast<const char*>(p->srcPtr.ptr) +
                           ((p->srcPos.z + s) * p->srcPtr.ysize + p->srcPos.y + r) * p->srcPtr.pitch + p->srcPos.x;
        e = cuda_emu::move_in(row.data(), from, rowbytes, p->kind);
      }
      if (e != cudaSuccess) return e;
      // Out of `row`.
      if (dst_array) {
        memcpy(p->dstArray->at(p->dstPos.x, p->dstPos.y + r, p->dstPos.z + s), row.data(), rowbytes);
      } else {
        char* to = static_cast<char*>(p->dstPtr.ptr) +
                   ((p->dstPos.z + s) * p->dstPtr.ysize + p->dstPos.y + r) * p->dstPtr.pitch + p->dstPos.x;
        e = cuda_emu::move_out(to, row.data(), rowbytes, p->kind);
      }
      if (e != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}


// ---- Texture objects ---------------------------------------------------------------------------------
static cudaTextureObject_t keep(cuda_emu::Object* o) {
  cuda_emu::g_objects.push_back(o);
  return cuda_emu::g_objects.size();
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* res,
                                    const cudaTextureDesc* desc,
                                    const cudaResourceViewDesc* view, const char* file, int line) {
  using namespace cuda_emu;
  CUDA_EMU_TEX_STICKY();
  // Error codes as the H200 returned them (tests/cuda/tex_linear_fetch.cu).
  if (!tex || !res) return texture_record(cudaErrorInvalidValue);
  if (!desc) return texture_record(cudaErrorInvalidResourceHandle);
  if (view) refuse(file, line, "a resource view (cudaResourceViewDesc) of a texture object");
  Object o;
  o.res = *res;
  o.td = *desc;
  switch (res->resType) {
    case cudaResourceTypeArray: {
      cudaArray* a = res->res.array.array;
      if (!live(a)) return texture_record(cudaErrorInvalidResourceHandle);
      o.array = a;
      o.format = format_of(a->desc);
      o.nx = a->nx;
      o.ny = a->ny;
      o.nz = a->nz;
      break;
    }
    case cudaResourceTypeLinear: {
      o.format = format_of(res->res.linear.desc);
      if (o.format.channels == 0) return texture_record(cudaErrorInvalidChannelDescriptor);
      const void* p = res->res.linear.devPtr;
      const size_t bytes = res->res.linear.sizeInBytes;
      const long long off = texture_alloc_offset(p, bytes);
      if (!p || off < 0 || off % 512 != 0) return texture_record(cudaErrorInvalidValue);
      o.base = static_cast<const unsigned char*>(p);
      o.count = bytes / o.format.bytes();
      break;
    }
    case cudaResourceTypePitch2D: {
      o.format = format_of(res->res.pitch2D.desc);
      if (o.format.channels == 0) return texture_record(cudaErrorInvalidChannelDescriptor);
      const void* p = res->res.pitch2D.devPtr;
      const size_t w = res->res.pitch2D.width, h = res->res.pitch2D.height, pitch = res->res.pitch2D.pitchInBytes;
      if (!p || w == 0 || h == 0 || pitch % 32 != 0 || pitch < w * o.format.bytes())
        return texture_record(cudaErrorInvalidValue);
      const long long off = texture_alloc_offset(p, pitch * (h - 1) + w * o.format.bytes());
      if (off < 0 || off % 512 != 0) return texture_record(cudaErrorInvalidValue);
      o.base = static_cast<const unsigned char*>(p);
      o.pitch = pitch;
      o.nx = w;
      o.ny = h;
      break;
    }
    default:
      refuse(file, line, "a texture over a mipmapped array");
  }
  const Format& f = o.format;
  if (desc->readMode == cudaReadModeNormalizedFloat &&
      (f.kind == cudaChannelFormatKindFloat || f.bits == 32))
    return texture_record(cudaErrorInvalidNormSetting);
  if (desc->filterMode == cudaFilterModeLinear && res->resType != cudaResourceTypeLinear &&
      f.kind != cudaChannelFormatKindFloat && desc->readMode != cudaReadModeNormalizedFloat)
    return texture_record(cudaErrorInvalidFilterSetting);
  if (desc->sRGB) refuse(file, line, "an sRGB texture");
  if (desc->maxAnisotropy > 1) refuse(file, line, "anisotropic filtering (maxAnisotropy > 1)");
  if (!is_zero_border(*desc) && f.kind != cudaChannelFormatKindFloat)
    refuse(file, line, "a non-zero border colour on a texture of integer texels");
  for (int d = 0; d < 3; ++d)
    if (desc->addressMode[d] < cudaAddressModeWrap || desc->addressMode[d] > cudaAddressModeBorder)
      return texture_record(cudaErrorInvalidValue);
  *tex = keep(new Object(o));
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
  CUDA_EMU_TEX_STICKY();
  if (tex == 0) return cudaSuccess;  // as the H200 answered
  cuda_emu::Object* o = cuda_emu::object_of(tex);
  if (!o || o->surface) return texture_record(cudaErrorInvalidValue);
  delete o;
  cuda_emu::g_objects[tex - 1] = nullptr;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex) {
  CUDA_EMU_TEX_STICKY();
  cuda_emu::Object* o = cuda_emu::object_of(tex);
  if (!res || !o || o->surface) return texture_record(cudaErrorInvalidValue);
  *res = o->res;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t tex) {
  CUDA_EMU_TEX_STICKY();
  cuda_emu::Object* o = cuda_emu::object_of(tex);
  if (!desc || !o || o->surface) return texture_record(cudaErrorInvalidValue);
  *desc = o->td;
  return cudaSuccess;
}

// ---- Surface objects ---------------------------------------------------------------------------------
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const cudaResourceDesc* res,
                                    const char* file, int line) {
  using namespace cuda_emu;
  CUDA_EMU_TEX_STICKY();
  if (!surf || !res) return texture_record(cudaErrorInvalidValue);
  if (res->resType != cudaResourceTypeArray) {
    // The H200 answered 20 for a linear resource whose description was
    // zeros (tests/cuda/surface_rw.cu); other cases were not measured.
    if (res->resType == cudaResourceTypeLinear && format_of(res->res.linear.desc).channels == 0)
      return texture_record(cudaErrorInvalidChannelDescriptor);
    refuse(file, line, "a surface object over anything but a cudaArray");
  }
  cudaArray* a = res->res.array.array;
  if (!live(a)) return texture_record(cudaErrorInvalidResourceHandle);
  // The H200 accepted an array made without cudaArraySurfaceLoadStore.
  Object o;
  o.surface = true;
  o.res = *res;
  o.array = a;
  o.format = format_of(a->desc);
  *surf = keep(new Object(o));
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) {
  CUDA_EMU_TEX_STICKY();
  if (surf == 0) return cudaSuccess;
  cuda_emu::Object* o = cuda_emu::object_of(surf);
  if (!o || !o->surface) return texture_record(cudaErrorInvalidValue);
  delete o;
  cuda_emu::g_objects[surf - 1] = nullptr;
  return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* res, cudaSurfaceObject_t surf) {
  CUDA_EMU_TEX_STICKY();
  cuda_emu::Object* o = cuda_emu::object_of(surf);
  if (!res || !o || !o->surface) return texture_record(cudaErrorInvalidValue);
  *res = o->res;
  return cudaSuccess;
}
