// Fits models of the H200's trilinear filter to tex3d_fit.cu's output:
//   g++ -O2 -std=c++17 -o /tmp/fit tests/cuda/fitting/fit_tex3d.cpp && /tmp/fit tex3d_fit.bin [MODE]
// Modes: the models (slices, grid, floor, far, ones, groups, perproduct, floortotal, condfloor,
// sticky, adder, pretexel, normsum, halfup, hex: the rule found on 2026-12-04) and analyses of the 432 misses (misses, stats, spread,
// depth, signs [list], need [all] [hi] [floorbad] [detail] [subsets], pattern, absgrid, d1,
// combos, stickymiss, show INDEX); mirror for the 8-bit samples.
// For each model it prints how many samples it reproduces bit for bit. The
// weights are the emulator's (the integer splits of cuda_emu_texture.cpp,
// measured on integer texels); the models differ in how the float texels
// are summed.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "tex3d_fit_inputs.h"

namespace {

const int kFix = 21;
const long long kOne = 1ll << kFix;

long long floor_div(long long x, long long d) {
  long long q = x / d;
  if ((x % d != 0) && ((x < 0) != (d < 0))) --q;
  return q;
}

struct Sample {
  float t[8];     // texels, corner k = (bit 0: x + 1, bit 1: y + 1, bit 2: z + 1)
  long w[8];      // weights in 1/256
  long a[3];      // the 8-bit fractions
  bool mirror;
  unsigned char v[8];
  long long i0[3];
  float c[3];
};

int exponent(float t) {
  uint32_t b;
  memcpy(&b, &t, 4);
  return (int)((b >> 23) & 0xff) - 126;
}
long long significand(float t) {
  uint32_t b;
  memcpy(&b, &t, 4);
  long long m = (b & 0x7fffff) | 0x800000;
  return (b >> 31) ? -m : m;
}

// v * 2^e rounded to float: mode 0 halves away, 1 nearest even, 2 toward zero,
// 3 halves up (toward plus infinity: floor(v + half) in two's complement).
float round_to_float(__int128 v, int e, int mode) {
  if (v == 0) return 0.0f;
  bool neg = v < 0;
  unsigned __int128 a = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  int nb = 0;
  for (unsigned __int128 c = a; c; c >>= 1) ++nb;
  int sh = nb - 24;
  unsigned long long m;
  if (sh > 0) {
    unsigned __int128 rem = a & (((unsigned __int128)1 << sh) - 1);
    unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
    m = (unsigned long long)(a >> sh);
    if (mode == 0 && rem >= half) ++m;
    if (mode == 1 && (rem > half || (rem == half && (m & 1)))) ++m;
    if (mode == 3 && (rem > half || (rem == half && !neg))) ++m;
  } else {
    m = (unsigned long long)(a << -sh);
  }
  float f = ldexpf((float)m, e + sh);
  return neg ? -f : f;
}

// sum t[k] w[k] / 2^wbits: significands aligned K bits below the largest
// exponent (of texels with a non-zero weight), cut toward zero.
bool g_floor = false;
bool g_ones = false;
int g_far = 1000;  // a negative texel shifted by more than this contributes -1 (unit of the last place)  // align by an arithmetic shift (floor) instead of cutting toward zero
__int128 aligned_sum(const float* t, const long* w, int n, int K, int* Eout, bool weight_zero_counts = false) {
  int E = INT_MIN;
  for (int k = 0; k < n; ++k)
    if ((w[k] != 0 || weight_zero_counts) && t[k] != 0.0f) E = std::max(E, exponent(t[k]));
  *Eout = E;
  if (E == INT_MIN) return 0;
  __int128 s = 0;
  for (int k = 0; k < n; ++k) {
    if ((w[k] == 0 && !weight_zero_counts) || t[k] == 0.0f) continue;
    long long m = significand(t[k]);
    int shift = E - exponent(t[k]) + 24 - K;
    if (g_floor) {
      long long f = shift <= 0 ? m * (1ll << -shift) : (shift >= 63 ? (m < 0 ? -1 : 0) : m >> shift);
      s += (__int128)f * w[k];
      continue;
    }
    long long a = m < 0 ? -m : m;
    a = shift <= 0 ? a << -shift : (shift >= 63 ? 0 : a >> shift);
    if (g_ones && m < 0) {
      s += (__int128)(-a - 1) * w[k];
      continue;
    }
    if (m < 0 && shift > g_far) {
      s -= w[k];
      continue;
    }
    s += (__int128)(m < 0 ? -a : a) * w[k];
  }
  return s;
}

float model_flat(const Sample& s, int K, int mode, bool zero_counts) {
  int E;
  __int128 v = aligned_sum(s.t, s.w, 8, K, &E, zero_counts);
  if (E == INT_MIN || v == 0) return 0.0f;
  return round_to_float(v, E - K - 8, mode);
}

// Each slice summed as the flat model does, kept as P-bit value (cut or rounded), then both summed exactly.
float model_slices(const Sample& s, int K, int P, int slice_mode, int mode) {
  // slice sums as exact (value, exponent) pairs
  __int128 vs[2];
  int Es[2];
  for (int z = 0; z < 2; ++z) vs[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, K, &Es[z]);
  // Reduce each slice to P significant bits.
  long double dummy = 0;
  (void)dummy;
  __int128 total = 0;
  int E = INT_MIN;
  for (int z = 0; z < 2; ++z)
    if (Es[z] != INT_MIN && vs[z] != 0) E = std::max(E, Es[z]);
  if (E == INT_MIN) return 0.0f;
  for (int z = 0; z < 2; ++z) {
    if (Es[z] == INT_MIN || vs[z] == 0) continue;
    bool neg = vs[z] < 0;
    unsigned __int128 a = neg ? -(unsigned __int128)vs[z] : (unsigned __int128)vs[z];
    int nb = 0;
    for (unsigned __int128 c = a; c; c >>= 1) ++nb;
    int sh = nb - P;
    int ex = Es[z] - K - 8;  // value = a * 2^ex
    if (sh > 0) {
      unsigned __int128 rem = a & (((unsigned __int128)1 << sh) - 1);
      unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
      a >>= sh;
      if (slice_mode == 0 && rem >= half) ++a;
      if (slice_mode == 1 && (rem > half || (rem == half && (a & 1)))) ++a;
      if (slice_mode == 4 && rem && neg) ++a;
      ex += sh;
    }
    // align to a common low exponent: E - K - 8 - 40
    int base = E - K - 8 - 40;
    int up = ex - base;
    unsigned __int128 al = up >= 0 ? a << up : a >> -up;
    total += neg ? -(__int128)al : (__int128)al;
  }
  return round_to_float(total, E - K - 8 - 40, mode);
}

// Two bilinear results (2D weights from a, b, as in the 2D filter), then a lerp by c.
float model_lerp(const Sample& s, int K, int mode, int mid_mode) {
  long ab = (s.a[0] * s.a[1] + 128) >> 8;
  long w2[4] = {256 - s.a[0] - s.a[1] + ab, s.a[0] - ab, s.a[1] - ab, ab};
  float slice[2];
  for (int z = 0; z < 2; ++z) {
    int E;
    __int128 v = aligned_sum(s.t + 4 * z, w2, 4, K, &E);
    slice[z] = (E == INT_MIN || v == 0) ? 0.0f : round_to_float(v, E - K - 8, mid_mode);
  }
  long wz[2] = {256 - s.a[2], s.a[2]};
  int E;
  __int128 v = aligned_sum(slice, wz, 2, K, &E);
  return (E == INT_MIN || v == 0) ? 0.0f : round_to_float(v, E - K - 8, mode);
}

// Each slice summed exactly with its texels aligned K bits below the slice's
// largest exponent; each slice sum then put on the grid 2^(E - G) of the
// larger slice exponent E (mode 0 halves away, 1 even, 2 cut, 3 away from zero);
// the two summed and rounded to float halves away.
float model_grid(const Sample& s, int K, int G, int gmode) {
  __int128 vs[2];
  int Es[2];
  int E = INT_MIN;
  for (int z = 0; z < 2; ++z) {
    vs[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, K, &Es[z]);
    if (Es[z] != INT_MIN && vs[z] != 0) E = std::max(E, Es[z]);
  }
  if (E == INT_MIN) return 0.0f;
  __int128 total = 0;  // in units of 2^(E - G)
  for (int z = 0; z < 2; ++z) {
    if (Es[z] == INT_MIN || vs[z] == 0) continue;
    bool neg = vs[z] < 0;
    unsigned __int128 a = neg ? -(unsigned __int128)vs[z] : (unsigned __int128)vs[z];
    int ex = Es[z] - K - 8;      // value = a * 2^ex
    int sh = (E - G) - ex;       // drop sh bits
    if (sh > 0) {
      if (sh >= 127) {
        a = (gmode == 3) ? 1 : 0;
      } else {
        unsigned __int128 rem = a & (((unsigned __int128)1 << sh) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
        a >>= sh;
        if (gmode == 0 && rem >= half) ++a;
        if (gmode == 1 && (rem > half || (rem == half && (a & 1)))) ++a;
        if (gmode == 3 && rem) ++a;
        if (gmode == 4 && rem && neg) ++a;  // floor
      }
    } else {
      a <<= -sh;
    }
    total += neg ? -(__int128)a : (__int128)a;
  }
  return round_to_float(total, E - G, 0);
}

// Each slice summed as the emulator does (K = 28); the slice with the
// smaller exponent (or both: both_floored) floored onto the grid 2^g, g =
// 4 (b >> 2) - 162 + 38 - off with b the larger slice exponent biased as a
// float's; then summed exactly and rounded to float halves away.
float model_hex(const Sample& s, int off, bool both_floored) {
  __int128 vs[2];
  int Es[2];
  int E = INT_MIN, zh = -1;
  for (int z = 0; z < 2; ++z) {
    vs[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &Es[z]);
    if (Es[z] != INT_MIN && Es[z] > E) { E = Es[z]; zh = z; }
  }
  if (E == INT_MIN) return 0.0f;
  const int g = 4 * ((E + 126) >> 2) - 162 + 38 - off;
  const int u = both_floored ? g : std::min(g, E - 36);
  __int128 total = 0;  // in units of 2^u
  for (int z = 0; z < 2; ++z) {
    if (Es[z] == INT_MIN || vs[z] == 0) continue;
    const int ex = Es[z] - 36;
    __int128 v = vs[z];
    if (ex < g && (z != zh || both_floored)) {
      const int sh = g - ex;
      v = sh >= 127 ? (v < 0 ? -1 : 0) : (v >> sh);  // floor
      total += v << (g - u);
    } else {
      total += v << (ex - u);
    }
  }
  return round_to_float(total, u, 0);
}

// Groups of texels, each summed exactly with its texels aligned K bits below
// the group's largest exponent; the groups' sums added exactly and rounded
// to float halves away.
float model_groups(const Sample& s, int K, const std::vector<std::vector<int>>& groups) {
  // common unit 2^(Emin - K - 8) over groups
  struct G { __int128 v; int E; };
  std::vector<G> gs;
  int lo = INT_MAX, hi = INT_MIN;
  for (const auto& g : groups) {
    float t[8];
    long w[8];
    for (size_t i = 0; i < g.size(); ++i) { t[i] = s.t[g[i]]; w[i] = s.w[g[i]]; }
    int E;
    __int128 v = aligned_sum(t, w, (int)g.size(), K, &E);
    if (E == INT_MIN || v == 0) continue;
    gs.push_back({v, E});
    lo = std::min(lo, E);
    hi = std::max(hi, E);
  }
  if (gs.empty()) return 0.0f;
  if (hi - lo > 60) lo = hi - 60;
  __int128 total = 0;
  for (const G& g : gs) {
    int up = g.E - lo;
    total += up >= 0 ? g.v * ((__int128)1 << up) : g.v / ((__int128)1 << -up);
  }
  return round_to_float(total, lo - K - 8, 0);
}

// The exact two-slice sum floored on the grid 2^(hi - 36 - x); where that dropped
// something, 2^(hi - 36 - x - g) added back (a sticky bit g places below the grid).
// Units of the return: 2^(lo - 36 - X) with X = 16 extra bits; *unit gets that exponent.
__int128 sticky_sum(const Sample& s, int x, int g, int* unit, bool* empty) {
  __int128 v[2];
  int E[2];
  for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
  int lo = INT_MAX, hi = INT_MIN;
  for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
  *empty = lo == INT_MAX;
  if (*empty) return 0;
  const int X = 16;
  __int128 S = 0;
  for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo + X));
  int sh = hi - lo - x + X;
  if (sh > 0 && sh < 110) {
    __int128 F = (S >> sh) << sh;
    if (F != S) F += (__int128)1 << std::max(0, sh - g);
    S = F;
  }
  *unit = lo - 36 - X;
  return S;
}

// v floored (two's complement) to p significant bits of its magnitude (p >= 200: unchanged).
__int128 floor_bits(__int128 v, int p) {
  if (v == 0 || p >= 200) return v;
  unsigned __int128 a = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  int n = 0;
  for (unsigned __int128 c = a; c; c >>= 1) ++n;
  int sh = n - p;
  if (sh <= 0) return v;
  return (v >> sh) << sh;
}

void weights(const long a[3], bool clamp_zero[3], long w[8]) {
  long aa[3] = {a[0], a[1], a[2]};
  for (int d = 0; d < 3; ++d)
    if (clamp_zero[d]) aa[d] = 0;
  const long S[2] = {256 - aa[2], aa[2]};
  for (int z = 0; z < 2; ++z) {
    const long A = (S[z] * aa[0] + 128) >> 8;
    const long col[2] = {S[z] - A, A};
    for (int x = 0; x < 2; ++x) {
      const bool up = x == 1 && aa[0] != 256;
      const long B = (col[x] * aa[1] + (up ? 128 : 127)) >> 8;
      w[4 * z + x] = col[x] - B;
      w[4 * z + 2 + x] = B;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: fit tex3d_fit.bin\n");
    return 2;
  }
  FILE* f = fopen(argv[1], "rb");
  if (!f) return 2;
  std::vector<Sample> floats;
  std::vector<float> want;
  std::vector<Sample> mirrors;
  std::vector<float> want_mirror;
  std::vector<float> got(fit::SAMPLES);
  for (int b = 0; b < fit::FLOAT_BATCHES + fit::MIRROR_BATCHES; ++b) {
    fit::Batch in = fit::batch(b);
    if (fread(got.data(), 4, fit::SAMPLES, f) != (size_t)fit::SAMPLES) return 3;
    const int n = fit::N;
    for (int i = 0; i < fit::SAMPLES; ++i) {
      Sample s{};
      long long i0[3];
      bool zero[3];
      float c[3] = {in.x[i], in.y[i], in.z[i]};
      for (int d = 0; d < 3; ++d) {
        long long X;
        if (in.is_float) {
          X = (long long)std::floor((double)c[d] * kOne);
        } else {
          long long q = (long long)std::floor((double)c[d] * kOne);
          long long m = ((q % (2 * kOne)) + 2 * kOne) % (2 * kOne);
          q = m < kOne ? m : 2 * kOne - m;
          X = q * n;
        }
        long long xb = X - kOne / 2;
        i0[d] = floor_div(xb, kOne);
        long long frac = xb - i0[d] * kOne;
        s.a[d] = (long)((frac + (1ll << (kFix - 9))) >> (kFix - 8));
        zero[d] = in.is_float && (i0[d] < 0 || i0[d] >= n - 1);
      }
      weights(s.a, zero, s.w);
      for (int d = 0; d < 3; ++d) { s.i0[d] = i0[d]; s.c[d] = c[d]; }
      s.mirror = !in.is_float;
      for (int k = 0; k < 8; ++k) {
        long long idx[3];
        for (int d = 0; d < 3; ++d) {
          long long j = i0[d] + ((k >> d) & 1);
          idx[d] = j < 0 ? 0 : (j >= n ? n - 1 : j);
        }
        size_t at = (idx[2] * n + idx[1]) * n + idx[0];
        if (in.is_float)
          s.t[k] = in.texels[at];
        else
          s.v[k] = in.bytes[at];
      }
      if (in.is_float) {
        floats.push_back(s);
        want.push_back(got[i]);
      } else {
        mirrors.push_back(s);
        want_mirror.push_back(got[i]);
      }
    }
  }
  auto miss_or = [&](size_t i) {
    float r = model_slices(floats[i], 28, 64, 0, 0);
    return memcmp(&r, &want[i], 4) != 0;
  };
  auto has = [&](const char* word) {
    for (int j = 3; j < argc; ++j)
      if (std::string(argv[j]) == word) return true;
    return false;
  };
  auto same = [](float a, float b) { return memcmp(&a, &b, 4) == 0; };
  auto score = [&](const std::string& name, const std::function<float(const Sample&)>& m) {
    size_t miss = 0, below = 0;
    long first = -1;
    for (size_t i = 0; i < floats.size(); ++i) {
      float r = m(floats[i]);
      if (!same(r, want[i])) {
        ++miss;
        if (std::fabs(r) < std::fabs(want[i])) ++below;
        if (first < 0) first = (long)i;
      }
    }
    printf("%-40s misses %zu of %zu (below %zu)", name.c_str(), miss, floats.size(), below);
    if (first >= 0) {
      const Sample& s = floats[first];
      printf("  first #%ld: got %a want %a w", first, m(s), want[first]);
      for (int k = 0; k < 8; ++k) printf(" %ld", s.w[k]);
    }
    printf("\n");
  };
  if (argc > 2 && std::string(argv[2]) == "misses") {
    int shown = 0;
    size_t per_batch[fit::FLOAT_BATCHES] = {};
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      float r = model_slices(s, 28, 64, 0, 0);
      if (same(r, want[i])) continue;
      ++per_batch[i / fit::SAMPLES];
      if (shown++ >= 12) continue;
      printf("#%zu got %a want %a  a=%ld b=%ld c=%ld\n", i, r, want[i], s.a[0], s.a[1], s.a[2]);
      for (int k = 0; k < 8; ++k) printf("   k%d w=%3ld t=%a (e %d)\n", k, s.w[k], s.t[k], exponent(s.t[k]));
    }
    for (int b = 0; b < fit::FLOAT_BATCHES; ++b) printf("batch %d: %zu misses\n", b, per_batch[b]);
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "need") {
    // For each sample: the exact two-slice sum S of the 432-miss model, in units of
    // 2^(lo - 36) (lo the smaller slice exponent), and the range [Dmin, Dmax] of
    // offsets D with round(S + D) equal to the H200's value.
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      int lo = INT_MAX, hi = INT_MIN;
      for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
      if (lo == INT_MAX) continue;
      __int128 S = 0;
      for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo));
      float r = round_to_float(S, lo - 36, 0);
      bool miss = !same(r, want[i]);
      if (!miss && !has("all")) continue;
      auto f = [&](__int128 D) { return round_to_float(S + D, lo - 36, 0); };
      __int128 L = -((__int128)1 << 110), H = ((__int128)1 << 110);
      // largest D with f(D) <= want
      __int128 a = L, b = H;
      while (b - a > 1) { __int128 m = a + (b - a) / 2; if (f(m) <= want[i]) a = m; else b = m; }
      __int128 Dmax = a;
      a = L; b = H;  // smallest D with f(D) >= want
      while (b - a > 1) { __int128 m = a + (b - a) / 2; if (f(m) >= want[i]) b = m; else a = m; }
      __int128 Dmin = b;
      int small = (v[0] != 0 && E[0] == lo && !(v[1] != 0 && E[1] == lo && false)) ? 0 : 1;
      if (has("hi")) {
        double u = std::ldexp(1.0, hi - lo);
        __int128 vlo = (v[0] != 0 && v[1] != 0) ? (E[0] == lo && E[1] != lo ? v[0] : (E[1] == lo && E[0] != lo ? v[1] : 0)) : 0;
        __int128 sh36 = (__int128)1 << (hi - lo);
        __int128 F = (S >> (hi - lo)) * sh36 - S;  // floor on the hi grid, as an offset
        bool fok = F >= Dmin && F <= Dmax;
        if (has("floorbad") && fok) continue;
        if (has("floorbad")) printf("F %.6g ", (double)F / u);
        printf("%s %zu hi %d lo %d er %d D/hiunit [%.6g, %.6g] loslice/hiunit %.6g ulp/hiunit %.6g\n", miss ? "MISS" : "hit", i, hi, lo,
               exponent(want[i]), (double)Dmin / u, (double)Dmax / u, (double)vlo / u, std::ldexp(1.0, exponent(want[i]) - 24 - hi + 36));
        continue;
      }
      printf("#%zu %s Eslices %d %d (lo %d hi %d) D in [%lld, %lld] units 2^(lo-36); S %s; result e %d\n", i, miss ? "MISS" : "hit",
             v[0] ? E[0] : 999, v[1] ? E[1] : 999, lo, hi, (long long)Dmin, (long long)Dmax, S < 0 ? "-" : "+", exponent(want[i]));
      (void)small;
      if (has("subsets")) {
        // negative texels whose cut dropped bits: flooring each lowers the sum by w 2^(Ez - lo)
        std::vector<int> ks;
        std::vector<__int128> c;
        for (int k = 0; k < 8; ++k) {
          if (s.w[k] == 0 || s.t[k] >= 0) continue;
          int z = k / 4;
          int sh = E[z] - exponent(s.t[k]) - 4;
          long long am = -significand(s.t[k]);
          bool cut = sh > 0 && (sh >= 63 || (am & ((1ll << sh) - 1)) != 0);
          if (!cut) continue;
          ks.push_back(k);
          c.push_back((__int128)s.w[k] << (E[z] - lo));
        }
        printf("   floorable:");
        for (size_t j = 0; j < ks.size(); ++j) {
          int z = ks[j] / 4;
          printf(" k%d(w %ld sh %d c %lld)", ks[j], s.w[ks[j]], E[z] - exponent(s.t[ks[j]]) - 4, (long long)c[j]);
        }
        printf("\n   fitting subsets:");
        for (unsigned m = 1; m < (1u << ks.size()); ++m) {
          __int128 d = 0;
          for (size_t j = 0; j < ks.size(); ++j) if (m >> j & 1) d -= c[j];
          if (d >= Dmin && d <= Dmax) {
            printf(" {");
            for (size_t j = 0; j < ks.size(); ++j) if (m >> j & 1) printf("k%d ", ks[j]);
            printf("}");
          }
        }
        printf("\n");
      }
      if (has("detail"))
        for (int k = 0; k < 8; ++k) {
          if (s.w[k] == 0 || s.t[k] == 0) continue;
          int z = k / 4;
          int sh = E[z] - exponent(s.t[k]) - 4;
          long long m = significand(s.t[k]);
          long long am = m < 0 ? -m : m;
          double frac = sh > 0 ? (sh >= 63 ? (double)am : (double)(am & ((1ll << sh) - 1))) / std::ldexp(1.0, std::min(sh, 62)) : 0.0;
          printf("   k%d %c w=%3ld shift %3d cutfrac %.4f  lost %.4f units\n", k, m < 0 ? '-' : '+', s.w[k], sh, frac,
                 frac * s.w[k] * std::ldexp(1.0, E[z] - lo));
        }
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "floortotal") {
    // The exact two-slice sum S floored (or cut, mode argv[3]) on the grid 2^(ref - G), ref one of:
    // 0 the larger slice's texel exponent, 1 the leading bit of the larger-magnitude slice sum,
    // 2 the leading bit of the total, 3 the leading bit of the hi-exponent slice's sum.
    auto lead = [](__int128 v) { unsigned __int128 a = v < 0 ? -(unsigned __int128)v : v; int n = 0; while (a) { ++n; a >>= 1; } return n; };
    for (int ref = 0; ref < 4; ++ref) {
      std::vector<size_t> miss(80, 0), miss7(80, 0);
      for (size_t i = 0; i < floats.size(); ++i) {
        const Sample& s = floats[i];
        __int128 v[2];
        int E[2];
        for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
        int lo = INT_MAX, hi = INT_MIN;
        for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
        if (lo == INT_MAX) { for (int G = 0; G < 80; ++G) if (!same(0.0f, want[i])) ++miss[G]; continue; }
        __int128 S = 0;
        for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo));
        // positions in units of 2^(lo - 36): bit b has weight 2^(lo - 36 + b)
        int r;  // ref as a bit count above 2^(lo-36): value 2^(ref) where ref in exponent terms relative to lo-36
        if (ref == 0) r = hi - lo + 36;
        else if (ref == 2) r = lead(S);
        else if (ref == 1) { __int128 a0 = v[0] ? v[0] * ((__int128)1 << (E[0] - lo)) : 0, a1 = v[1] ? v[1] * ((__int128)1 << (E[1] - lo)) : 0; r = std::max(lead(a0), lead(a1)); }
        else { int z = (v[1] != 0 && (v[0] == 0 || E[1] > E[0])) ? 1 : 0; r = lead(v[z] * ((__int128)1 << (E[z] - lo))); }
        bool cut = argc > 3 && std::string(argv[3]) == "cut";
        for (int G = 20; G < 80; ++G) {
          int sh = r - G;
          __int128 T = S;
          if (sh > 0) {
            if (sh >= 120) T = cut ? 0 : (S < 0 ? -((__int128)1 << 120) : 0);
            else {
              __int128 q = S >> sh;  // floor
              if (cut && S < 0 && (q << sh) != S) ++q;
              T = q << sh;
            }
            if (sh >= 120) { if (!same(T == 0 ? 0.0f : -INFINITY, want[i])) { ++miss[G]; } continue; }
          }
          float f = T == 0 ? 0.0f : round_to_float(T, lo - 36, 0);
          if (!same(f, want[i])) ++miss[G];
        }
      }
      for (int G = 20; G < 80; ++G) printf("ref %d G %d misses %zu\n", ref, G, miss[G]);
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "perproduct") {
    // Each product (texel cut 28 bits below its slice's exponent, times its weight) put on the
    // grid 2^(hi - G) of the larger slice exponent by floor (mode 0) or cut (1), then summed.
    for (int mode = 0; mode < 2; ++mode)
      for (int G = 34; G < 48; ++G)
        score("per product " + std::string(mode ? "cut" : "floor") + " G=" + std::to_string(G), [=](const Sample& s) {
          int E[2];
          for (int z = 0; z < 2; ++z) {
            E[z] = INT_MIN;
            for (int k = 4 * z; k < 4 * z + 4; ++k) if (s.w[k] && s.t[k] != 0) E[z] = std::max(E[z], exponent(s.t[k]));
          }
          int hi = std::max(E[0], E[1]);
          if (hi == INT_MIN) return 0.0f;
          __int128 tot = 0;
          for (int k = 0; k < 8; ++k) {
            int z = k / 4;
            if (!s.w[k] || s.t[k] == 0) continue;
            long long m = significand(s.t[k]);
            long long a = m < 0 ? -m : m;
            int shift = E[z] - exponent(s.t[k]) - 4;
            a = shift <= 0 ? a << -shift : (shift >= 63 ? 0 : a >> shift);
            __int128 v = (__int128)(m < 0 ? -a : a) * s.w[k];  // units 2^(E[z] - 36)
            int sh = (hi - G) - (E[z] - 36);
            if (sh > 0) {
              if (sh >= 120) v = (mode == 0 && v < 0) ? -1 : 0;
              else {
                __int128 q = v >> sh;
                if (mode == 1 && v < 0 && (q << sh) != v) ++q;
                v = q;
              }
            } else v <<= -sh;
            tot += v;  // units 2^(hi - G)
          }
          return tot == 0 ? 0.0f : round_to_float(tot, hi - G, 0);
        });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "pattern") {
    // For each sample, which floors of the exact two-slice sum on the grid 2^(hi - 36 - x),
    // x = -2 .. 14, give the H200's value ('o' yes, '.' no); samples where all or none do are skipped.
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      int lo = INT_MAX, hi = INT_MIN;
      for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
      if (lo == INT_MAX) continue;
      __int128 S = 0;
      for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo));
      std::string pat;
      int n = 0;
      for (int x = -2; x <= 14; ++x) {
        int sh = hi - lo - x;
        __int128 T = sh > 0 ? ((S >> sh) << sh) : S;
        bool ok = same(T == 0 ? 0.0f : round_to_float(T, lo - 36, 0), want[i]);
        pat += ok ? 'o' : '.';
        n += ok;
      }
      if (n == 17 || (n == 0 && !has("none"))) continue;
      int spread = 0, hiT = INT_MIN, loT = INT_MAX;
      for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) { hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k])); }
      spread = hiT - loT;
      int zhi = (v[1] != 0 && (v[0] == 0 || E[1] > E[0])) ? 1 : 0;
      printf("%s #%zu batch %zu d %2d spread %2d hi-slice z%d sums %c%c er-hi %d\n", pat.c_str(), i, i / fit::SAMPLES,
             (v[0] && v[1]) ? hi - lo : -1, spread, zhi, v[0] < 0 ? '-' : v[0] ? '+' : '0', v[1] < 0 ? '-' : v[1] ? '+' : '0',
             exponent(want[i]) - hi);
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "depth") {
    // Cancellation depth: the result's exponent minus the largest texel exponent, by spread <= 6 or not.
    std::vector<size_t> n[2], m[2];
    for (int j = 0; j < 2; ++j) { n[j].assign(80, 0); m[j].assign(80, 0); }
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      int hiT = INT_MIN, loT = INT_MAX;
      for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) { hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k])); }
      if (hiT == INT_MIN || want[i] == 0) continue;
      int j = hiT - loT > 6;
      int dep = std::min(79, std::max(0, hiT - exponent(want[i])));
      ++n[j][dep];
      if (!same(model_slices(s, 28, 64, 0, 0), want[i])) ++m[j][dep];
    }
    for (int d = 0; d < 80; ++d)
      if (n[0][d] || n[1][d]) printf("depth %2d: spread<=6 %7zu (miss %zu)  spread>6 %7zu (miss %zu)\n", d, n[0][d], m[0][d], n[1][d], m[1][d]);
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "condfloor") {
    // The exact two-slice sum floored on the grid 2^(hi - 36 - x), but only when a condition holds:
    // cond 0 always, 1 spread > 6, 2 some texel shifted by 3 or more in its slice, 3 some texel's cut
    // dropped bits, 4 the hi slice has a texel shifted by 3 or more, 5 the lo slice has one,
    // 6 the hi slice's cut dropped bits, 7 the lo slice's cut dropped bits, 8 the total is
    // negative, 9 the hi slice's sum is negative, 10 the total is negative and spread > 6.
    for (int cond = 0; cond < 11; ++cond)
      for (int x = -1; x <= 3; ++x)
        score("condfloor cond " + std::to_string(cond) + " x=" + std::to_string(x), [=](const Sample& s) {
          __int128 v[2];
          int E[2];
          for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
          int lo = INT_MAX, hi = INT_MIN;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
          if (lo == INT_MAX) return 0.0f;
          int zhi = (v[1] != 0 && (v[0] == 0 || E[1] > E[0])) ? 1 : 0;
          bool big[2] = {false, false}, lost[2] = {false, false};
          int hiT = INT_MIN, loT = INT_MAX;
          for (int k = 0; k < 8; ++k) {
            if (!s.w[k] || s.t[k] == 0) continue;
            int z = k / 4;
            hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k]));
            int sh = E[z] - exponent(s.t[k]) - 4;
            if (sh >= 3) big[z] = true;
            long long am = std::llabs(significand(s.t[k]));
            if (sh > 0 && (sh >= 63 || (am & ((1ll << sh) - 1)))) lost[z] = true;
          }
          bool c = cond == 0 || (cond == 1 && hiT - loT > 6) || (cond == 2 && (big[0] || big[1])) || (cond == 3 && (lost[0] || lost[1])) ||
                   (cond == 4 && big[zhi]) || (cond == 5 && big[1 - zhi]) || (cond == 6 && lost[zhi]) || (cond == 7 && lost[1 - zhi]);
          __int128 S = 0;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo));
          if (cond == 8) c = S < 0;
          if (cond == 9) c = v[zhi] < 0;
          if (cond == 10) c = S < 0 && hiT - loT > 6;
          int sh = hi - lo - x;
          if (c && sh > 0) S = (S >> sh) << sh;
          return S == 0 ? 0.0f : round_to_float(S, lo - 36, 0);
        });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "sticky") {
    // The exact two-slice sum floored on the grid 2^(hi - 36 - x); where that dropped
    // something, 2^(hi - 36 - x - g) added back (a sticky bit g places below the grid).
    for (int x = -1; x <= 3; ++x)
      for (int g = 1; g <= 12; ++g)
        score("sticky x=" + std::to_string(x) + " g=" + std::to_string(g), [=](const Sample& s) {
          __int128 v[2];
          int E[2];
          for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
          int lo = INT_MAX, hi = INT_MIN;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
          if (lo == INT_MAX) return 0.0f;
          const int X = 16;  // extra fraction bits
          __int128 S = 0;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo + X));
          int sh = hi - lo - x + X;
          if (sh > 0 && sh < 110) {
            __int128 F = (S >> sh) << sh;
            if (F != S) F += (__int128)1 << std::max(0, sh - g);
            S = F;
          }
          return S == 0 ? 0.0f : round_to_float(S, lo - 36 - X, 0);
        });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "show") {
    // One sample's texels, weights and the model's integers: show INDEX
    size_t i = std::stoul(argv[3]);
    const Sample& s = floats[i];
    __int128 v[2];
    int E[2];
    for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
    printf("#%zu a=%ld b=%ld c=%ld want %a (%.17g) model %a\n", i, s.a[0], s.a[1], s.a[2], want[i], want[i], model_slices(s, 28, 64, 0, 0));
    for (int z = 0; z < 2; ++z) printf(" slice %d E %d sum %lld (units 2^%d)\n", z, E[z], (long long)v[z], E[z] - 36);
    for (int k = 0; k < 8; ++k) {
      int z = k / 4;
      long long m = significand(s.t[k]);
      int sh = E[z] - exponent(s.t[k]) - 4;
      printf("  k%d w %3ld t %a e %d m %lld (0x%llx) shift %d aligned %lld rem %lld/2^%d\n", k, s.w[k], s.t[k], exponent(s.t[k]), m,
             (unsigned long long)std::llabs(m), sh, sh <= 0 ? m * (1ll << -sh) : (m < 0 ? -(-m >> sh) : m >> sh),
             sh > 0 ? (std::llabs(m) & ((1ll << std::min(sh, 62)) - 1)) : 0ll, sh);
    }
    // want as a multiple of 2^(lo-36)
    int lo = std::min(v[0] ? E[0] : INT_MAX, v[1] ? E[1] : INT_MAX);
    __int128 S = 0;
    for (int z = 0; z < 2; ++z) if (v[z]) S += v[z] * ((__int128)1 << (E[z] - lo));
    printf(" S = %lld units 2^%d; want = %.6f units\n", (long long)S, lo - 36, std::ldexp((double)want[i], -(lo - 36)));
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "absgrid") {
    // For samples where flooring the exact sum on a grid 2^g matters: the g that work
    // (as a range list), beside candidate references: hi, lo, the leading-bit exponents
    // (frexp) of the hi slice, the lo slice and the total, the result's exponent.
    auto fx = [](__int128 v, int unit) { if (v == 0) return -999; unsigned __int128 a = v < 0 ? -(unsigned __int128)v : v; int n = 0; while (a) { ++n; a >>= 1; } return n + unit; };
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      if (!v[0] || !v[1] || E[0] == E[1]) continue;
      int lo = std::min(E[0], E[1]), hi = std::max(E[0], E[1]);
      int zhi = E[1] > E[0];
      __int128 S = v[0] * ((__int128)1 << (E[0] - lo)) + v[1] * ((__int128)1 << (E[1] - lo));
      std::string pat;
      int n = 0;
      for (int g = lo - 36; g <= hi - 30; ++g) {
        int sh = g - (lo - 36);
        __int128 T = sh > 0 ? ((S >> sh) << sh) : S;
        bool ok = same(T == 0 ? 0.0f : round_to_float(T, lo - 36, 0), want[i]);
        pat += ok ? 'o' : '.';
        n += ok;
      }
      if (n == (int)pat.size() || n == 0) continue;
      printf("%s |g from %d: works", miss_or(i) ? "MISS" : "hit ", lo - 36);
      int g0 = -1000;
      for (int g = lo - 36; g <= hi - 30 + 1; ++g) {
        bool ok = g <= hi - 30 && pat[g - (lo - 36)] == 'o';
        if (ok && g0 == -1000) g0 = g;
        if (!ok && g0 != -1000) { printf(" [%d,%d]", g0, g - 1); g0 = -1000; }
      }
      int spread = 0, hiT = INT_MIN, loT = INT_MAX;
      for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) { hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k])); }
      spread = hiT - loT;
      printf(" | hi %d lo %d Lhi %d Llo %d LS %d er %d spread %d #%zu\n", hi, lo, fx(v[zhi], E[zhi] - 36), fx(v[1 - zhi], lo - 36), fx(S, lo - 36),
             exponent(want[i]), spread, i);
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "signs") {
    // Misses and samples by the signs of the hi slice, the lo slice and the total (slices at different exponents).
    std::map<std::string, std::pair<size_t, size_t>> t;
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      int hiT = INT_MIN, loT = INT_MAX;
      for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) { hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k])); }
      if (hiT - loT <= 6) continue;
      std::string key;
      if (!v[0] || !v[1]) key = "one slice";
      else if (E[0] == E[1]) key = "same E";
      else {
        int zh = E[1] > E[0];
        key = std::string("hi ") + (v[zh] < 0 ? "-" : "+") + " lo " + (v[1 - zh] < 0 ? "-" : "+") + " tot " + (want[i] < 0 ? "-" : "+") + (zh ? " (hi=z1)" : " (hi=z0)");
      }
      t[key].first++;
      if (miss_or(i)) { t[key].second++; if (has("list")) printf("%s #%zu\n", key.c_str(), i); }
    }
    for (auto& e : t) printf("%-28s %7zu samples %4zu misses\n", e.first.c_str(), e.second.first, e.second.second);
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "halfup") {
    // The exact two-slice sum floored on the grid 2^(hi - 36 - x) (x = 99: not floored),
    // then rounded to float with halves up (toward plus infinity) or away from zero.
    for (int rmode : {0, 3})
      for (int x : {99, -1, 0, 1, 2, 3, 4, 6, 8})
        score("floor x=" + std::to_string(x) + (rmode == 3 ? " halves up" : " halves away"), [=](const Sample& s) {
          __int128 v[2];
          int E[2];
          for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
          int lo = INT_MAX, hi = INT_MIN;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) { lo = std::min(lo, E[z]); hi = std::max(hi, E[z]); }
          if (lo == INT_MAX) return 0.0f;
          __int128 S = 0;
          for (int z = 0; z < 2; ++z) if (v[z] != 0) S += v[z] * ((__int128)1 << (E[z] - lo));
          int sh = hi - lo - x;
          if (x != 99 && sh > 0) S = sh >= 120 ? (S < 0 ? -((__int128)1 << 120) : 0) : (S >> sh) << sh;
          return S == 0 ? 0.0f : round_to_float(S, lo - 36, rmode);
        });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "stickymiss") {
    // The misses of sticky x=0 g=8, with the model's constraint window.
    for (size_t i = 0; i < floats.size(); ++i) {
      int unit;
      bool empty;
      __int128 T = sticky_sum(floats[i], 0, 8, &unit, &empty);
      float f = (empty || T == 0) ? 0.0f : round_to_float(T, unit, 0);
      if (same(f, want[i])) continue;
      printf("%s %s #%zu got %a want %a\n", miss_or(i) ? "was-miss" : "was-hit ", std::fabs(f) < std::fabs(want[i]) ? "H200 further" : "H200 nearer ", i, f, want[i]);
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "pretexel") {
    // Each texel first floored (mode 0) or cut toward zero (1) on the grid 2^(hi - 28 - G) of the
    // largest exponent of all eight, then aligned in its slice as the 432-miss model does
    // (cut 28 bits below the slice's largest exponent), times its weight, all summed exactly.
    for (int mode = 0; mode < 2; ++mode)
      for (int G = -2; G <= 14; ++G)
        score("pretexel " + std::string(mode ? "cut" : "floor") + " G=" + std::to_string(G), [=](const Sample& s) {
          int E[2] = {INT_MIN, INT_MIN};
          for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) E[k / 4] = std::max(E[k / 4], exponent(s.t[k]));
          int hi = std::max(E[0], E[1]);
          if (hi == INT_MIN) return 0.0f;
          int lo = std::min(E[0] == INT_MIN ? hi : E[0], E[1] == INT_MIN ? hi : E[1]);
          // texels exactly in units of 2^(hi - 100)
          const int base = hi - 100;
          __int128 tot = 0;  // units 2^(lo - 36)
          for (int k = 0; k < 8; ++k) {
            if (!s.w[k] || s.t[k] == 0) continue;
            int z = k / 4;
            long long m = significand(s.t[k]);  // t = m 2^(e - 24)
            int e = exponent(s.t[k]);
            __int128 T = (__int128)m << (e - 24 - base);
            int gsh = (hi - 28 - G) - base;  // global grid
            __int128 q = T >> gsh;
            if (mode == 1 && T < 0 && (q << gsh) != T) ++q;
            T = q << gsh;
            int ssh = (E[z] - 28) - base;  // slice grid, cut toward zero
            __int128 a = T < 0 ? -T : T;
            a >>= ssh;
            __int128 A = T < 0 ? -a : a;  // units 2^(E_z - 28)
            tot += (A * s.w[k]) << (E[z] - lo);
          }
          return tot == 0 ? 0.0f : round_to_float(tot, lo - 36, 0);
        });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "adder") {
    // The lo slice aligned to the hi slice's grid with x guard bits below 2^(hi - 36):
    // align 0 floor (two's complement), 1 cut toward zero (sign-magnitude); a sticky bit where
    // the alignment dropped something: sticky 0 none, 1 +eps, 2 eps toward the lo slice's sign,
    // 3 eps toward the total's sign, 4 -eps; then the sum rounded halves away.
    for (int align = 0; align < 2; ++align)
      for (int st = 0; st < 5; ++st)
        for (int x = -1; x <= 4; ++x)
          score("adder align " + std::to_string(align) + " sticky " + std::to_string(st) + " x=" + std::to_string(x), [=](const Sample& s) {
            __int128 v[2];
            int E[2];
            for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
            if (!v[0] && !v[1]) return 0.0f;
            if (!v[0] || !v[1] || E[0] == E[1]) {
              int lo = std::min(v[0] ? E[0] : INT_MAX, v[1] ? E[1] : INT_MAX);
              __int128 S = 0;
              for (int z = 0; z < 2; ++z) if (v[z]) S += v[z] * ((__int128)1 << (E[z] - lo));
              return S == 0 ? 0.0f : round_to_float(S, lo - 36, 0);
            }
            int zh = E[1] > E[0];
            int hi = E[zh], lo = E[1 - zh];
            const int X = 20;
            __int128 L = v[1 - zh] << X;  // units 2^(lo - 36 - X)
            int sh = hi - lo - x;          // bits to drop
            bool dropped = false;
            if (sh > 0) {
              if (sh < 100) {
                __int128 unit = (__int128)1 << (sh + X);
                __int128 q;
                if (align == 0) q = (L >= 0) ? L / unit : -((-L + unit - 1) / unit);
                else q = L / unit;
                dropped = q * unit != L;
                L = q * unit;
              }
            }
            __int128 H = v[zh] << (hi - lo + X);
            if (sh >= 100) {
              // lo slice entirely below the grid: floor gives -1 grid unit when negative
              __int128 unitHi = (__int128)1 << (hi - lo + X);  // one hi unit, grid is hi unit / 2^x
              __int128 g = x >= 0 ? unitHi >> x : unitHi << -x;
              L = (align == 0 && v[1 - zh] < 0) ? -g : 0;
              dropped = true;
            }
            __int128 T = H + L;
            __int128 eps = 1;
            if (dropped) {
              if (st == 1) T += eps;
              if (st == 2) T += v[1 - zh] < 0 ? -eps : eps;
              if (st == 3) T += T < 0 ? -eps : eps;
              if (st == 4) T -= eps;
            }
            return T == 0 ? 0.0f : round_to_float(T, lo - 36 - X, 0);
          });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "combos") {
    // For every sample with slices at different exponents and a texel shifted by 3 or more:
    // which combinations of (negative texels floored instead of cut) x (lo slice floored on the
    // grid 2^(hi - 36 - x), x in none,0,1,2,3) give the H200's value. Prints samples where the
    // model's own choice (no floors, none) fails, or where "hit" and arg "all".
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      int E[2] = {INT_MIN, INT_MIN};
      for (int k = 0; k < 8; ++k) if (s.w[k] && s.t[k] != 0) E[k / 4] = std::max(E[k / 4], exponent(s.t[k]));
      if (E[0] == INT_MIN || E[1] == INT_MIN || E[0] == E[1]) continue;
      int zh = E[1] > E[0];
      int hi = E[zh], lo = E[1 - zh];
      std::vector<int> fl;
      __int128 base[8];
      for (int k = 0; k < 8; ++k) {
        base[k] = 0;
        if (!s.w[k] || s.t[k] == 0) continue;
        int z = k / 4;
        long long m = significand(s.t[k]);
        long long a = std::llabs(m);
        int sh = E[z] - exponent(s.t[k]) - 4;
        long long q = sh <= 0 ? a << -sh : (sh >= 63 ? 0 : a >> sh);
        bool cut = sh > 0 && (sh >= 63 || (q << sh) != a);
        base[k] = (__int128)(m < 0 ? -q : q) * s.w[k];
        if (m < 0 && cut) fl.push_back(k);
      }
      if (fl.size() > 8) continue;
      bool model_ok = false;
      std::string out;
      for (unsigned mask = 0; mask < (1u << fl.size()); ++mask)
        for (int x = -1; x <= 3; ++x) {  // -1: no lo floor
          __int128 v[2] = {0, 0};
          for (int k = 0; k < 8; ++k) v[k / 4] += base[k];
          for (size_t j = 0; j < fl.size(); ++j) if (mask >> j & 1) v[fl[j] / 4] -= s.w[fl[j]];
          __int128 L = v[1 - zh];
          if (x >= 0) { int sh = hi - lo - x; if (sh > 0) L = sh >= 120 ? (L < 0 ? -((__int128)1 << 119) : 0) : (L >> sh) << sh; }
          __int128 S = (v[zh] << (hi - lo)) + L;
          bool ok = same(S == 0 ? 0.0f : round_to_float(S, lo - 36, 0), want[i]);
          if (ok && mask == 0 && x == -1) model_ok = true;
          if (ok && (mask == 0 || x == -1) ) {
            out += " {";
            for (size_t j = 0; j < fl.size(); ++j) if (mask >> j & 1) out += "k" + std::to_string(fl[j]) + " ";
            out += x >= 0 ? "x" + std::to_string(x) : "-";
            out += "}";
          }
        }
      if (model_ok && !has("all")) continue;
      printf("%s #%zu hi z%d:%s\n", model_ok ? "hit " : "MISS", i, zh, out.c_str());
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "normsum") {
    // Slice sums floored to P significant bits (which: 0 both, 1 z0 only, 2 the lo slice), the
    // total floored to N significant bits, rounded halves away.
    for (int which = 0; which < 3; ++which)
      for (int P : {30, 31, 32, 33, 34, 36, 999})
        for (int N : {23, 24, 25, 26, 28, 30, 32, 999})
          score("normsum which " + std::to_string(which) + " P=" + std::to_string(P) + " N=" + std::to_string(N), [=](const Sample& s) {
            __int128 v[2];
            int E[2];
            for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
            int lo = INT_MAX;
            for (int z = 0; z < 2; ++z) if (v[z] != 0) lo = std::min(lo, E[z]);
            if (lo == INT_MAX) return 0.0f;
            int zlo = (v[0] && v[1]) ? (E[0] <= E[1] ? 0 : 1) : -1;
            __int128 S = 0;
            for (int z = 0; z < 2; ++z) {
              if (!v[z]) continue;
              bool norm = which == 0 || (which == 1 && z == 0) || (which == 2 && z == zlo && E[0] != E[1]);
              S += (norm ? floor_bits(v[z], P) : v[z]) * ((__int128)1 << (E[z] - lo));
            }
            S = floor_bits(S, N);
            return S == 0 ? 0.0f : round_to_float(S, lo - 36, 0);
          });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "d1") {
    // Slices one exponent apart with an odd lo slice sum where dropping (flooring) that LSB
    // changes the result: whether the H200 dropped it, beside features.
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      if (!v[0] || !v[1] || std::abs(E[0] - E[1]) != 1) continue;
      int zh = E[1] > E[0];
      int lo = E[1 - zh];
      __int128 S = (v[zh] << 1) + v[1 - zh];
      __int128 F = (v[zh] << 1) + ((v[1 - zh] >> 1) << 1);
      float keep = round_to_float(S, lo - 36, 0), drop = F == 0 ? 0.0f : round_to_float(F, lo - 36, 0);
      if (same(keep, drop)) continue;
      const char* what = same(want[i], keep) ? "KEEP" : same(want[i], drop) ? "DROP" : "NEITHER";
      int maxsh[2] = {-99, -99}, cut[2] = {0, 0}, negcut[2] = {0, 0}, ntex[2] = {0, 0};
      int hiT = INT_MIN, loT = INT_MAX;
      std::string tx;
      for (int k = 0; k < 8; ++k) {
        if (!s.w[k] || s.t[k] == 0) continue;
        int z = k / 4;
        ++ntex[z];
        hiT = std::max(hiT, exponent(s.t[k])); loT = std::min(loT, exponent(s.t[k]));
        int sh = E[z] - exponent(s.t[k]) - 4;
        maxsh[z] = std::max(maxsh[z], sh);
        long long a = std::llabs(significand(s.t[k]));
        bool c = sh > 0 && (sh >= 63 || (a & ((1ll << sh) - 1)));
        cut[z] += c;
        if (c && s.t[k] < 0) negcut[z]++;
        char buf[64];
        snprintf(buf, sizeof buf, " %c%d:%c%d w%ld%s", z == zh ? 'H' : 'L', k, s.t[k] < 0 ? '-' : '+', sh, s.w[k], c ? "*" : "");
        tx += buf;
      }
      printf("%-5s #%6zu hi z%d signs H%c L%c T%c spread %2d maxsh H%3d L%3d cut H%d L%d negcut H%d L%d |%s\n", what, i, zh,
             v[zh] < 0 ? '-' : '+', v[1 - zh] < 0 ? '-' : '+', S < 0 ? '-' : '+', hiT - loT, maxsh[zh], maxsh[1 - zh], cut[zh], cut[1 - zh],
             negcut[zh], negcut[1 - zh], tx.c_str());
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "stats") {
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      float r = model_slices(s, 28, 64, 0, 0);
      if (same(r, want[i])) continue;
      __int128 v[2];
      int E[2];
      for (int z = 0; z < 2; ++z) v[z] = aligned_sum(s.t + 4 * z, s.w + 4 * z, 4, 28, &E[z]);
      // per-slice: signs of texels (weight != 0) and their shifts
      printf("E %3d %3d sums %c %c res %c H200 %s |", E[0], E[1], v[0] < 0 ? '-' : '+', v[1] < 0 ? '-' : '+',
             r < 0 ? '-' : '+', std::fabs(want[i]) > std::fabs(r) ? "further" : "nearer ");
      for (int k = 0; k < 8; ++k) {
        if (s.w[k] == 0 || s.t[k] == 0) { printf("   . "); continue; }
        int z = k / 4;
        printf(" %c%3d", s.t[k] < 0 ? '-' : '+', E[z] - exponent(s.t[k]));
        if (k == 3) printf(" |");
      }
      printf("\n");
    }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "groups") {
    const std::vector<std::pair<std::string, std::vector<std::vector<int>>>> parts = {
        {"z slices", {{0, 1, 2, 3}, {4, 5, 6, 7}}},
        {"y slices", {{0, 1, 4, 5}, {2, 3, 6, 7}}},
        {"x slices", {{0, 2, 4, 6}, {1, 3, 5, 7}}},
        {"columns (y pairs)", {{0, 2}, {1, 3}, {4, 6}, {5, 7}}},
        {"rows (x pairs)", {{0, 1}, {2, 3}, {4, 5}, {6, 7}}},
        {"z pairs", {{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
        {"singles", {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}},
    };
    for (const auto& p : parts)
      for (int K : {28})
        score(p.first + " K=" + std::to_string(K), [&](const Sample& s) { return model_groups(s, K, p.second); });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "spread") {
    // spread: the largest exponent minus the smallest over texels with a non-zero weight (zeros left out)
    std::vector<size_t> all(80, 0), missed(80, 0);
    for (size_t i = 0; i < floats.size(); ++i) {
      const Sample& s = floats[i];
      int hi = INT_MIN, lo = INT_MAX;
      for (int k = 0; k < 8; ++k) {
        if (s.w[k] == 0 || s.t[k] == 0) continue;
        hi = std::max(hi, exponent(s.t[k]));
        lo = std::min(lo, exponent(s.t[k]));
      }
      int d = hi == INT_MIN ? 0 : std::min(hi - lo, 79);
      ++all[d];
      if (!same(model_slices(s, 28, 64, 0, 0), want[i])) ++missed[d];
    }
    for (int d = 0; d < 80; ++d)
      if (all[d]) printf("spread %2d: %7zu samples, %4zu missed\n", d, all[d], missed[d]);
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "ones") {
    g_ones = true;
    score("ones slices K=28", [=](const Sample& s) { return model_slices(s, 28, 64, 0, 0); });
    for (int G : {36, 37, 38, 39, 40})
      score("ones grid floor G=" + std::to_string(G), [=](const Sample& s) { return model_grid(s, 28, G, 4); });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "far") {
    for (int L : {20, 23, 24, 25, 26, 27, 28, 30, 32, 36, 40, 48})
      for (int mode : {0}) {
        g_far = L;
        score("far L=" + std::to_string(L) + " slices", [=](const Sample& s) { g_far = L; return model_slices(s, 28, 64, 0, mode); });
        score("far L=" + std::to_string(L) + " flat", [=](const Sample& s) { g_far = L; return model_flat(s, 28, mode, false); });
      }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "floor") {
    g_floor = true;
    for (int K : {27, 28, 29})
      for (int mode : {0, 1, 2}) {
        score("floor flat K=" + std::to_string(K) + " mode " + std::to_string(mode),
              [=](const Sample& s) { return model_flat(s, K, mode, false); });
        score("floor slices K=" + std::to_string(K) + " mode " + std::to_string(mode),
              [=](const Sample& s) { return model_slices(s, K, 64, 0, mode); });
      }
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "grid") {
    for (int G = 30; G <= 44; ++G)
      for (int gm : {0, 1, 2, 3, 4})
        score("grid K=28 G=" + std::to_string(G) + " mode " + std::to_string(gm),
              [=](const Sample& s) { return model_grid(s, 28, G, gm); });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "hex") {
    for (int off : {36, 37, 38, 39, 40})
      for (bool both : {false, true})
        score("hex off=" + std::to_string(off) + (both ? " both slices floored" : " lo slice floored"),
              [=](const Sample& s) { return model_hex(s, off, both); });
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "slices") {
    for (int K : {27, 28, 29})
      for (int P : {24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 36, 40, 64})
        for (int sm : {4})
          score("slices K=" + std::to_string(K) + " P=" + std::to_string(P) + " slice mode " + std::to_string(sm),
                [=](const Sample& s) { return model_slices(s, K, P, sm, 0); });
    return 0;
  }
  for (int K : {26, 27, 28, 29, 30, 31, 32, 36, 40})
    for (int mode : {0, 1})
      score("flat K=" + std::to_string(K) + " mode " + std::to_string(mode),
            [=](const Sample& s) { return model_flat(s, K, mode, false); });
  score("flat K=28 zero-weight texels in E", [](const Sample& s) { return model_flat(s, 28, 0, true); });
  for (int K : {28, 30, 32})
    for (int P : {24, 25, 26, 28, 30, 32})
      for (int sm : {0, 1, 2})
        score("slices K=" + std::to_string(K) + " P=" + std::to_string(P) + " slice mode " + std::to_string(sm),
              [=](const Sample& s) { return model_slices(s, K, P, sm, 0); });
  for (int K : {28, 32})
    for (int mm : {0, 1, 2})
      score("lerp K=" + std::to_string(K) + " mid mode " + std::to_string(mm),
            [=](const Sample& s) { return model_lerp(s, K, 0, mm); });
  // Mirror: 8-bit unsigned texels, the 16-bit fixed-point filter.
  size_t miss = 0;
  long first = -1;
  for (size_t i = 0; i < mirrors.size(); ++i) {
    long long sum = 0;
    for (int k = 0; k < 8; ++k) sum += (long long)mirrors[i].v[k] * 257 * mirrors[i].w[k];
    float r = (float)((sum + 128) >> 8) / 65535.0f;
    if (!same(r, want_mirror[i])) {
      ++miss;
      if (first < 0) first = (long)i;
    }
  }
  printf("mirror uchar (weights as clamp, no edge zeroing): misses %zu of %zu", miss, mirrors.size());
  {
    int shown = 0;
    std::vector<size_t> edge_all(8, 0), edge_miss(8, 0);
    for (size_t i = 0; i < mirrors.size(); ++i) {
      const Sample& s = mirrors[i];
      long long sum = 0;
      for (int k = 0; k < 8; ++k) sum += (long long)s.v[k] * 257 * s.w[k];
      float r = (float)((sum + 128) >> 8) / 65535.0f;
      int edges = 0;
      for (int d = 0; d < 3; ++d) if (s.i0[d] < 0 || s.i0[d] >= fit::N - 1) edges |= 1 << d;
      ++edge_all[edges];
      if (same(r, want_mirror[i])) continue;
      ++edge_miss[edges];
      if (argc > 2 && std::string(argv[2]) == "mirror" && shown++ < 10) {
        printf("\n #%zu c %a %a %a i0 %lld %lld %lld a %ld %ld %ld got %a want %a (x65535: %.2f %.2f)", i, s.c[0], s.c[1], s.c[2],
               s.i0[0], s.i0[1], s.i0[2], s.a[0], s.a[1], s.a[2], r, want_mirror[i], r * 65535.0, want_mirror[i] * 65535.0);
      }
    }
    for (int e = 0; e < 8; ++e) printf("\n edges %d: %zu samples %zu missed", e, edge_all[e], edge_miss[e]);
  }
  // Mirror in texel index space: weights from the unreflected coordinate.
  {
    size_t miss2 = 0;
    for (int b = fit::FLOAT_BATCHES, j = 0; b < fit::FLOAT_BATCHES + fit::MIRROR_BATCHES; ++b) {
      fit::Batch in = fit::batch(b);
      const long long n = fit::N;
      for (int i = 0; i < fit::SAMPLES; ++i, ++j) {
        float c[3] = {in.x[i], in.y[i], in.z[i]};
        long a[3];
        long long i0[3];
        for (int d = 0; d < 3; ++d) {
          long long q = (long long)std::floor((double)c[d] * kOne);
          long long X = q * n;
          long long xb = X - kOne / 2;
          i0[d] = floor_div(xb, kOne);
          long long frac = xb - i0[d] * kOne;
          a[d] = (long)((frac + (1ll << (kFix - 9))) >> (kFix - 8));
        }
        bool zero[3] = {false, false, false};
        long w[8];
        weights(a, zero, w);
        long long sum = 0;
        for (int k = 0; k < 8; ++k) {
          long long idx[3];
          for (int d = 0; d < 3; ++d) {
            long long t = i0[d] + ((k >> d) & 1);
            long long m = ((t % (2 * n)) + 2 * n) % (2 * n);
            idx[d] = m < n ? m : 2 * n - 1 - m;
          }
          sum += (long long)in.bytes[(idx[2] * n + idx[1]) * n + idx[0]] * 257 * w[k];
        }
        float r = (float)((sum + 128) >> 8) / 65535.0f;
        if (!same(r, want_mirror[j])) ++miss2;
      }
    }
    printf("\nmirror by texel index, unreflected weights: misses %zu of %zu\n", miss2, mirrors.size());
  }
  if (first >= 0) printf(" first #%ld", first);
  printf("\n");
  return 0;
}
