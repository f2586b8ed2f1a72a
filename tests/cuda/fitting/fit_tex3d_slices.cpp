// fit_tex3d_slices.cpp: scores models of the H200's trilinear float filter
// against tex3d_slices.cu's output (z slices of four equal texels A and B,
// x and y weights 128, z weight k = 1..255), counting misses per batch.
// The slices' own sums are exact there (A (256 - k), B k), so only the step
// that adds the two slices can differ from the exact sum rounded once.
//
//   xz -dk tests/cuda/fitting/tex3d_slices.bin.xz
//   g++ -O2 -o /tmp/fs tests/cuda/fitting/fit_tex3d_slices.cpp
//   /tmp/fs tests/cuda/fitting/tex3d_slices.bin MODE G [SHOW]
//
// MODE 0: the exact sum rounded to float, halves away (the emulator's model;
// G unused); 1: the sum floored on the grid 2^(q_hi - 12 + G), q_hi the
// exponent of the larger texel's last bit, before rounding; 2: floored G bits
// below the sum's leading bit; 3: as 1 with a sticky bit for what the floor
// dropped; 4 and 5: a lerp A + (B - A) k / 256 with B - A floored (4) or cut
// (5) on the grid 2^(q_hi - 4 + G); 6: the H200's rule (2026-12-04), the
// smaller slice floored onto the grid 2^(4 floor(b / 4) - 162), b the larger
// texel's biased exponent (G unused). SHOW prints that many misses. BATCHES
// (default 8) reads tex3d_slices_bits.cu's output, which has 4.
//
//   /tmp/fs DATA MODE G [SHOW [BATCHES]]
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cmath>
#include <cstdlib>
typedef __int128 i128;
const int P = 1024, W = 255;
int B = 8;
struct S { int b; int64_t ma; int qa; int64_t mb; int qb; uint32_t out[255]; };
static void decomp(uint32_t bits, int64_t* m, int* q) {
  int e = (bits >> 23) & 255; int64_t mm = (bits & 0x7fffff) | 0x800000;
  *m = (bits >> 31) ? -mm : mm; *q = e - 150;
}
static uint32_t round_away(i128 T, int q) {
  if (T == 0) return 0;
  uint32_t s = T < 0 ? 0x80000000u : 0; unsigned __int128 a = T < 0 ? -T : T;
  int nb = 0; for (unsigned __int128 x = a; x; x >>= 1) ++nb;
  int sh = nb - 24; uint64_t m;
  if (sh > 0) { m = (uint64_t)(a >> sh); unsigned __int128 rem = a & (((unsigned __int128)1 << sh) - 1);
    if (rem >= ((unsigned __int128)1 << (sh - 1))) ++m; if (m == (1u << 24)) { m >>= 1; ++sh; } }
  else m = (uint64_t)(a << -sh);
  return s | ((uint32_t)(q + sh + 150) << 23) | (uint32_t)(m & 0x7fffff);
}
static i128 floor_to(i128 v, int e) { if (e <= 0) return v; i128 G = (i128)1 << e; i128 r = v % G; if (r < 0) r += G; return v - r; }
std::vector<S> all;
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb");
  if (!f || argc < 4) { fprintf(stderr, "usage: fit_tex3d_slices DATA MODE G [SHOW [BATCHES]]\n"); return 2; }
  if (argc > 5) B = atoi(argv[5]);
  for (int b = 0; b < B; ++b) {
    std::vector<float> ab(2 * P); std::vector<uint32_t> out(P * W);
    fread(ab.data(), 4, 2 * P, f); fread(out.data(), 4, P * W, f);
    for (int m = 0; m < P; ++m) { S s; s.b = b; uint32_t x, y; memcpy(&x, &ab[2*m], 4); memcpy(&y, &ab[2*m+1], 4);
      decomp(x, &s.ma, &s.qa); decomp(y, &s.mb, &s.qb); memcpy(s.out, &out[m * W], 4 * W); all.push_back(s); }
  }
  int mode = atoi(argv[2]); int g = atoi(argv[3]); int show = argc > 4 ? atoi(argv[4]) : 0;
  std::vector<long> miss(B, 0); int shown = 0;
  for (auto& s : all) {
    bool hiA = s.qa >= s.qb;
    int qhi = hiA ? s.qa : s.qb, qlo = hiA ? s.qb : s.qa;
    int q = qlo - 8;
    for (int k = 1; k < 256; ++k) {
      i128 TA = (i128)s.ma * (256 - k) << (s.qa - qlo), TB = (i128)s.mb * k << (s.qb - qlo);
      i128 T = TA + TB;
      i128 Tf;
      int grid = qhi - 12 + g - q;
      if (mode == 0) Tf = T;                                      // exact
      else if (mode == 1) Tf = floor_to(T, grid);                  // total floored on hi grid
      else if (mode == 2) { // grid below the total's leading bit
        unsigned __int128 a = T < 0 ? -T : T; int nb = 0; for (auto x = a; x; x >>= 1) ++nb;
        Tf = floor_to(T, nb - g); }
      else if (mode == 3) { i128 fl = floor_to(T, grid); Tf = (fl << 4) + (fl != T ? 1 : 0); }
      else if (mode == 6) {  // the larger slice exact, the smaller floored on the grid
        int be = qhi + 23 + 127, ge = 4 * (be >> 2) - 162 - q;  // in units of 2^q
        i128 hi = hiA ? TA : TB, lo = hiA ? TB : TA;
        Tf = hi + floor_to(lo, ge); }
      else if (mode == 4 || mode == 5) {
        // lerp: A + (B - A) k / 256, B - A on a grid 2^(qhi - 4 + g) (floor: 4, toward zero: 5)
        i128 a = (i128)s.ma << (s.qa - qlo), bb = (i128)s.mb << (s.qb - qlo);
        i128 diff = bb - a; int ge = qhi - 4 + g - qlo;
        if (ge > 0) { if (mode == 4) diff = floor_to(diff, ge); else { i128 G = (i128)1 << ge; diff = diff / G * G; } }
        Tf = (a << 8) + diff * k; }
      else Tf = T;
      uint32_t p = round_away(Tf, mode == 3 ? q - 4 : q);
      if (p != s.out[k - 1]) { ++miss[s.b];
        if (shown < show) { ++shown;
          unsigned __int128 a = T < 0 ? -T : T; int nb = 0; for (auto x = a; x; x >>= 1) ++nb;
          printf("b%d d=%d k=%d hi=%c sA=%c sB=%c lead(T)-grid0=%d  T-leadbits=%d res %08x gpu %08x\n", s.b, qhi-qlo, k, hiA?'A':'B', s.ma<0?'-':'+', s.mb<0?'-':'+', nb - (qhi - 12 - q), nb, p, s.out[k-1]); } }
    }
  }
  printf("mode %d g %d:", mode, g); long t = 0; for (int b = 0; b < B; ++b) { printf(" %ld", miss[b]); t += miss[b]; } printf("  total %ld\n", t);
}
