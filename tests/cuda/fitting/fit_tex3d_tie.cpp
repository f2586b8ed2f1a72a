// fit_tex3d_tie.cpp: scores two models of how the H200 adds a trilinear
// fetch's two z slices against tex3d_tie.cu's output (one slice exactly on
// a rounding tie, the other of the other sign scanned down to nothing):
//
//   xz -dk tests/cuda/fitting/tex3d_tie.bin.xz
//   g++ -O2 -std=c++17 -o /tmp/ft tests/cuda/fitting/fit_tex3d_tie.cpp
//   /tmp/ft tests/cuda/fitting/tex3d_tie.bin
//
// "exact": both slices' sums added exactly, rounded to float halves away
// (the emulator's model until 2026-12-04). "grid": the smaller slice
// floored onto the grid 2^(4 floor(b / 4) - 162), b the larger texel's
// biased exponent, then added and rounded the same way (the emulator's
// model since). It prints the misses per lo-slice layout, and, for the
// "exact" model, the threshold below which the small slice vanished against
// the hi texel's biased exponent modulo 4.
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

namespace {

typedef __int128 i128;
struct Record { uint32_t a, b, k, mode, lo_first, result; };

// m * 2^q = the float's value (m signed, 24 bits); q of a zero is unused.
void decompose(uint32_t bits, int64_t* m, int* q) {
  int e = (bits >> 23) & 255;
  int64_t mm = e ? ((bits & 0x7fffff) | 0x800000) : 0;
  *m = (bits >> 31) ? -mm : mm;
  *q = e - 150;
}

uint32_t round_away(i128 T, int q) {  // T * 2^q rounded to float, halves away
  if (T == 0) return 0;
  uint32_t s = T < 0 ? 0x80000000u : 0;
  unsigned __int128 a = T < 0 ? -(unsigned __int128)T : (unsigned __int128)T;
  int nb = 0;
  for (unsigned __int128 x = a; x; x >>= 1) ++nb;
  int sh = nb - 24;
  uint64_t m;
  if (sh > 0) {
    m = (uint64_t)(a >> sh);
    if ((a & (((unsigned __int128)1 << sh) - 1)) >= ((unsigned __int128)1 << (sh - 1))) ++m;
    if (m == (1u << 24)) { m >>= 1; ++sh; }
  } else {
    m = (uint64_t)(a << -sh);
  }
  return s | ((uint32_t)(q + sh + 150) << 23) | (uint32_t)(m & 0x7fffff);
}

// The weight of texel t (x bit + 2 y bit) in a slice of weight S at x and y weights 128.
int64_t texel_weight(int64_t S, int t) {
  int64_t A = (S * 128 + 128) >> 8, C = S - A, c1 = (C * 128 + 127) >> 8, a1 = (A * 128 + 128) >> 8;
  const int64_t w[4] = {C - c1, A - a1, c1, a1};
  return w[t];
}

i128 on_grid(i128 v, int q, int g) {  // v * 2^q floored onto the grid 2^g, in units of 2^g
  int sh = g - q;
  if (sh <= 0) return v << -sh;
  return sh >= 127 ? (v < 0 ? -1 : 0) : v >> sh;
}

}  // namespace

int main(int argc, char** argv) {
  FILE* f = argc > 1 ? fopen(argv[1], "rb") : nullptr;
  if (!f) { fprintf(stderr, "usage: fit_tex3d_tie tex3d_tie.bin\n"); return 2; }
  std::vector<Record> rec;
  Record r;
  while (fread(&r, sizeof r, 1, f) == 1) rec.push_back(r);
  fclose(f);
  std::map<int, long> miss_exact, miss_grid, total;
  // For each hi slice with a positive lo slice in all four texels: the
  // smallest lo slice (in units of the hi sum's last bit) that still counted.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> smallest_kept;
  for (const Record& s : rec) {
    const int lo_mode = s.mode & 15, hi_single = s.mode >> 4;
    const int64_t Sh = s.lo_first ? s.k : 256 - s.k, Sl = 256 - Sh;
    int64_t ma, mb;
    int qa, qb;
    decompose(s.a, &ma, &qa);
    decompose(s.b, &mb, &qb);
    const i128 H = (i128)ma * (hi_single ? texel_weight(Sh, 3) : Sh);  // units of 2^(qa - 8)
    i128 L = 0;                                                         // units of 2^(qb - 8)
    if (lo_mode != 3 && mb != 0) L = (i128)mb * (lo_mode == 0 ? Sl : texel_weight(Sl, lo_mode == 1 ? 0 : 3));
    const uint32_t exact = L == 0 ? round_away(H, qa - 8) : round_away((H << (qa - qb)) + L, qb - 8);
    const int g = 4 * ((qa + 150) >> 2) - 162;
    const uint32_t grid = round_away(on_grid(H, qa - 8, g) + (L == 0 ? 0 : on_grid(L, qb - 8, g)), g);
    ++total[lo_mode];
    miss_exact[lo_mode] += exact != s.result;
    miss_grid[lo_mode] += grid != s.result;
    if (lo_mode == 0 && L > 0 && s.result == exact && exact != round_away(H, qa - 8)) {
      const double v = std::ldexp((double)L, qb - qa);
      auto key = std::make_tuple(s.a, s.k, s.lo_first);
      auto it = smallest_kept.find(key);
      if (it == smallest_kept.end() || v < it->second) smallest_kept[key] = v;
    }
  }
  const char* layout[4] = {"lo slice in all four texels", "lo slice in texel (x0, y0)", "lo slice in texel (x1, y1)",
                           "lo slice all zero (the tie alone)"};
  for (int m = 0; m < 4; ++m)
    printf("%-36s %6ld samples: exact misses %6ld, grid misses %ld\n", layout[m], total[m], miss_exact[m], miss_grid[m]);
  std::map<std::pair<int, int>, long> threshold;  // (biased exponent mod 4, floor(log2(smallest kept))) -> hi slices
  for (const auto& [key, v] : smallest_kept)
    ++threshold[{(int)((std::get<0>(key) >> 23) & 255) % 4, (int)std::floor(std::log2(v))}];
  printf("the smallest positive lo slice that counted beside a negative hi slice, in units of 2^-8 of the hi texel's last bit:\n");
  for (const auto& [key, n] : threshold)
    printf("  hi texel's biased exponent %% 4 = %d: 2^%d (%ld hi slices)\n", key.first, key.second, n);
  return 0;
}
