// Fits models of the H200's trilinear filter to tex3d_fit.cu's output:
//   g++ -O2 -std=c++17 -o /tmp/fit tests/cuda/fitting/fit_tex3d.cpp && /tmp/fit tex3d_fit.bin
// For each model it prints how many samples it reproduces bit for bit. The
// weights are the emulator's (the integer splits of cuda_emu_texture.cpp,
// measured on integer texels); the models differ in how the float texels
// are summed.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
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

// v * 2^e rounded to float: mode 0 halves away, 1 nearest even, 2 toward zero.
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
