// curand_kernel.h: part of the CPU emulation shim: cuRAND's device API.
//
// Three generators, written from their published algorithms and checked bit
// for bit against the H200 (tests/cuda/curand_*.cu):
//   XORWOW (curandState, curandStateXORWOW_t): Marsaglia's xorshift with a
//     Weyl sequence ("Xorshift RNGs", 2003); a subsequence is 2^67 draws.
//     Jumps multiply the 160-bit state by powers of the generator's matrix
//     over GF(2), computed here at first use by repeated squaring.
//   Philox4_32_10 (curandStatePhilox4_32_10_t): Salmon et al., "Parallel
//     random numbers: as easy as 1, 2, 3" (SC11), 10 rounds; the subsequence
//     is the upper 64 bits of the 128-bit counter.
//   MRG32k3a (curandStateMRG32k3a_t): L'Ecuyer, "Good parameters and
//     implementations for combined multiple recursive random number
//     generators" (1999); jumps by powers of its 3x3 matrices modulo m1, m2.
// How curand_init turns a seed into a state, and how the uniform
// distributions use the raw draws, follow what the H200 measurably does (the
// probes print the states right after curand_init, and hash 2^22 draws).
// The normal distribution, float and double, of all three generators uses
// CUDA's own math and the hardware sine measured on the H200 (below).
// Refused when called, naming the line: the float log-normal and the
// Poisson distribution. Refused at
// compile time: MRG32k3a's skipahead_sequence (not measured). Other generators (MTGP32,
// Sobol) have no state type here, so code using them does not compile.
#ifndef CUDA_EMU_CURAND_KERNEL_H
#define CUDA_EMU_CURAND_KERNEL_H
#pragma GCC system_header

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2PI (6.2831855f)
#define CURAND_2POW53_INV_2PI_DOUBLE (1.1102230246251565e-16 * 6.2831853071795860)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_2PI_DOUBLE (6.2831853071795860)
#define CURAND_SQRT2 (-1.4142135f)
#define CURAND_SQRT2_DOUBLE (-1.4142135623730951)

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateMRG32k3a curandStateMRG32k3a_t;

namespace cuda_emu {
namespace rand {

// ---- XORWOW ---------------------------------------------------------------------
// The xorshift part's 160-bit state (v[0] in bits 0-31 ... v[4] in 128-159).
struct Bits160 {
  unsigned int w[5];
};
inline Bits160 xorshift_step(Bits160 s) {
  unsigned int t = s.w[0] ^ (s.w[0] >> 2);
  Bits160 r;
  r.w[0] = s.w[1];
  r.w[1] = s.w[2];
  r.w[2] = s.w[3];
  r.w[3] = s.w[4];
  r.w[4] = (s.w[4] ^ (s.w[4] << 4)) ^ (t ^ (t << 1));
  return r;
}
// A 160x160 matrix over GF(2), as the images of the 160 unit vectors.
struct Matrix160 {
  Bits160 col[160];
};
inline Bits160 apply(const Matrix160& m, const Bits160& x) {
  Bits160 r = {{0, 0, 0, 0, 0}};
  for (int j = 0; j < 160; ++j) {
    if ((x.w[j / 32] >> (j % 32)) & 1u) {
      for (int k = 0; k < 5; ++k) r.w[k] ^= m.col[j].w[k];
    }
  }
  return r;
}
inline void square(const Matrix160& m, Matrix160* out) {
  for (int j = 0; j < 160; ++j) out->col[j] = apply(m, m.col[j]);
}
// powers[k] = M^(2^k), k = 0 .. 63 + 67 (offsets use 0-63, subsequences
// of 2^67 draws use 67-130).
struct XorwowPowers {
  Matrix160 p[131];
  XorwowPowers() {
    for (int j = 0; j < 160; ++j) {
      Bits160 e = {{0, 0, 0, 0, 0}};
      e.w[j / 32] = 1u << (j % 32);
      p[0].col[j] = xorshift_step(e);
    }
    for (int k = 1; k < 131; ++k) square(p[k - 1], &p[k]);
  }
};
// Computed before main, not on first use: a function-local static first reached in a
// kernel would be initialized by one thread's fiber while the warp's lock step switches
// to another fiber on the same OS thread, which then finds the initialization under way
// (recursive_init_error: cuda-samples' MC_EstimatePiInlineP).
inline const XorwowPowers* const g_xorwow_powers = new XorwowPowers();
inline const XorwowPowers& xorwow_powers() { return *g_xorwow_powers; }
inline void xorwow_jump(curandStateXORWOW* s, unsigned long long n, int first_power) {
  if (n == 0) return;
  const XorwowPowers& pw = xorwow_powers();
  Bits160 x;
  for (int k = 0; k < 5; ++k) x.w[k] = s->v[k];
  for (int b = 0; b < 64; ++b) {
    if ((n >> b) & 1ull) x = apply(pw.p[first_power + b], x);
  }
  for (int k = 0; k < 5; ++k) s->v[k] = x.w[k];
}
inline unsigned int xorwow_next(curandStateXORWOW* s) {
  unsigned int t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437u;
  return s->v[4] + s->d;
}

// ---- Philox4x32-10 ------------------------------------------------------------------
inline uint4 philox(uint4 c, uint2 k) {
  for (int r = 0; r < 10; ++r) {
    unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
    unsigned int hi0 = static_cast<unsigned>(p0 >> 32), lo0 = static_cast<unsigned>(p0);
    unsigned int hi1 = static_cast<unsigned>(p1 >> 32), lo1 = static_cast<unsigned>(p1);
    c = uint4{hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0};
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return c;
}
inline void counter_add(uint4* c, unsigned long long n) {
  unsigned long long lo = (static_cast<unsigned long long>(c->y) << 32 | c->x);
  unsigned long long sum = lo + n;
  unsigned long long carry = sum < lo;
  c->x = static_cast<unsigned>(sum);
  c->y = static_cast<unsigned>(sum >> 32);
  if (carry) {
    unsigned long long hi = (static_cast<unsigned long long>(c->w) << 32 | c->z) + 1;
    c->z = static_cast<unsigned>(hi);
    c->w = static_cast<unsigned>(hi >> 32);
  }
}
inline void counter_add_high(uint4* c, unsigned long long n) {
  unsigned long long hi = (static_cast<unsigned long long>(c->w) << 32 | c->z) + n;
  c->z = static_cast<unsigned>(hi);
  c->w = static_cast<unsigned>(hi >> 32);
}
inline unsigned int philox_next(curandStatePhilox4_32_10* s) {
  unsigned int r;
  switch (s->STATE) {
    case 0: r = s->output.x; break;
    case 1: r = s->output.y; break;
    case 2: r = s->output.z; break;
    default: r = s->output.w; break;
  }
  ++s->STATE;
  if (s->STATE == 4) {
    counter_add(&s->ctr, 1);
    s->output = philox(s->ctr, s->key);
    s->STATE = 0;
  }
  return r;
}

// ---- MRG32k3a -----------------------------------------------------------------------
constexpr unsigned long long kM1 = 4294967087ull, kM2 = 4294944443ull;
struct Mat3 {
  unsigned long long a[3][3];
};
inline Mat3 mul(const Mat3& x, const Mat3& y, unsigned long long m) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      unsigned __int128 s = 0;
      for (int k = 0; k < 3; ++k) s += static_cast<unsigned __int128>(x.a[i][k]) * y.a[k][j];
      r.a[i][j] = static_cast<unsigned long long>(s % m);
    }
  return r;
}
inline Mat3 identity3() {
  Mat3 r = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  return r;
}
inline Mat3 mrg_a1() {
  Mat3 r = {{{0, 1, 0}, {0, 0, 1}, {kM1 - 810728ull, 1403580ull, 0}}};
  return r;
}
inline Mat3 mrg_a2() {
  Mat3 r = {{{0, 1, 0}, {0, 0, 1}, {kM2 - 1370589ull, 0, 527612ull}}};
  return r;
}
inline Mat3 power(Mat3 base, unsigned long long n, unsigned long long m) {
  Mat3 r = identity3();
  while (n) {
    if (n & 1) r = mul(r, base, m);
    base = mul(base, base, m);
    n >>= 1;
  }
  return r;
}
inline Mat3 power2(Mat3 base, int k, unsigned long long m) {  // base^(2^k)
  for (int i = 0; i < k; ++i) base = mul(base, base, m);
  return base;
}
inline void apply3(const Mat3& a, unsigned int* s, unsigned long long m) {
  unsigned long long r[3];
  for (int i = 0; i < 3; ++i) {
    unsigned __int128 t = 0;
    for (int k = 0; k < 3; ++k) t += static_cast<unsigned __int128>(a.a[i][k]) * s[k];
    r[i] = static_cast<unsigned long long>(t % m);
  }
  for (int i = 0; i < 3; ++i) s[i] = static_cast<unsigned>(r[i]);
}
// Jumps n draws (k = 0) or n subsequences of 2^76 draws (k = 76).
// Before main, for the reason given at g_xorwow_powers.
inline const Mat3 g_mrg_b1_76 = power2(mrg_a1(), 76, kM1);
inline const Mat3 g_mrg_b2_76 = power2(mrg_a2(), 76, kM2);
inline void mrg_jump(curandStateMRG32k3a* s, unsigned long long n, int k) {
  if (n == 0) return;
  Mat3 b1 = k == 0 ? mrg_a1() : g_mrg_b1_76;
  Mat3 b2 = k == 0 ? mrg_a2() : g_mrg_b2_76;
  apply3(power(b1, n, kM1), s->s1, kM1);
  apply3(power(b2, n, kM2), s->s2, kM2);
}
// One step; the combined value in 1 .. m1.
inline unsigned long long mrg_next(curandStateMRG32k3a* s) {
  long long p1 = (1403580ll * s->s1[1] - 810728ll * s->s1[0]) % static_cast<long long>(kM1);
  if (p1 < 0) p1 += kM1;
  s->s1[0] = s->s1[1];
  s->s1[1] = s->s1[2];
  s->s1[2] = static_cast<unsigned>(p1);
  long long p2 = (527612ll * s->s2[2] - 1370589ll * s->s2[0]) % static_cast<long long>(kM2);
  if (p2 < 0) p2 += kM2;
  s->s2[0] = s->s2[1];
  s->s2[1] = s->s2[2];
  s->s2[2] = static_cast<unsigned>(p2);
  return p1 > p2 ? static_cast<unsigned long long>(p1 - p2) : static_cast<unsigned long long>(p1 - p2 + kM1);
}
// The uniform double: p times the double nearest 1 / m1 (measured).
inline double mrg_double(curandStateMRG32k3a* s) {
  return static_cast<double>(mrg_next(s)) * (1.0 / 4294967087.0);
}

}  // namespace rand
}  // namespace cuda_emu

// ---- initialisation and jumps --------------------------------------------------------------
inline void skipahead(unsigned long long n, curandStateXORWOW* s) {
  ::cuda_emu::rand::xorwow_jump(s, n, 0);
  s->d += static_cast<unsigned>(n) * 362437u;
}
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW* s) {
  ::cuda_emu::rand::xorwow_jump(s, n, 67);
}
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW* s) {
  unsigned int s0 = static_cast<unsigned>(seed) ^ 0xaad26b49u;
  unsigned int s1 = static_cast<unsigned>(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;
  s->d = 6615241u + t1 + t0;
  s->v[0] = 123456789u + t0;
  s->v[1] = 362436069u ^ t0;
  s->v[2] = 521288629u + t1;
  s->v[3] = 88675123u ^ t1;
  s->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
}

inline void skipahead(unsigned long long n, curandStatePhilox4_32_10* s) {
  s->STATE += static_cast<unsigned>(n & 3);
  n /= 4;
  if (s->STATE > 3) {
    n += 1;
    s->STATE -= 4;
  }
  ::cuda_emu::rand::counter_add(&s->ctr, n);
  s->output = ::cuda_emu::rand::philox(s->ctr, s->key);
}
inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10* s) {
  ::cuda_emu::rand::counter_add_high(&s->ctr, n);
  s->output = ::cuda_emu::rand::philox(s->ctr, s->key);
}
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10* s) {
  s->ctr = uint4{0, 0, 0, 0};
  s->key = uint2{static_cast<unsigned>(seed), static_cast<unsigned>(seed >> 32)};
  s->STATE = 0;
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
}

inline void skipahead(unsigned long long n, curandStateMRG32k3a* s) { ::cuda_emu::rand::mrg_jump(s, n, 0); }
inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a* s) {
  ::cuda_emu::rand::mrg_jump(s, n, 76);
}
// skipahead_sequence on MRG32k3a (jumps of 2^127 draws, by the algorithm's
// literature) was not measured on the H200, so it is refused: a call is a
// compile error ("use of deleted function") at the caller's line.
void skipahead_sequence(unsigned long long n, curandStateMRG32k3a* s) = delete;
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateMRG32k3a* s) {
  // Measured on the H200: every word starts at 12345; a nonzero seed
  // multiplies them by its low and high words, scrambled, modulo m1 or m2.
  for (int i = 0; i < 3; ++i) s->s1[i] = s->s2[i] = 12345u;
  if (seed != 0) {
    unsigned long long x1 = static_cast<unsigned>(seed) ^ 0x55555555u;
    unsigned long long x2 = static_cast<unsigned>(seed >> 32) ^ 0xaaaaaaaau;
    s->s1[0] = static_cast<unsigned>((x1 * 12345ull) % ::cuda_emu::rand::kM1);
    s->s1[1] = static_cast<unsigned>((x2 * 12345ull) % ::cuda_emu::rand::kM1);
    s->s1[2] = static_cast<unsigned>((x1 * 12345ull) % ::cuda_emu::rand::kM1);
    s->s2[0] = static_cast<unsigned>((x2 * 12345ull) % ::cuda_emu::rand::kM2);
    s->s2[1] = static_cast<unsigned>((x1 * 12345ull) % ::cuda_emu::rand::kM2);
    s->s2[2] = static_cast<unsigned>((x2 * 12345ull) % ::cuda_emu::rand::kM2);
  }
  skipahead_subsequence(subsequence, s);
  skipahead(offset, s);
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
}

// ---- raw draws --------------------------------------------------------------------------------
inline unsigned int curand(curandStateXORWOW* s) { return ::cuda_emu::rand::xorwow_next(s); }
inline unsigned int curand(curandStatePhilox4_32_10* s) { return ::cuda_emu::rand::philox_next(s); }
// MRG32k3a's 32 bits: the combined value p (1 .. m1) times 1.000000048662
// (2^32 / m1 to 12 digits) in double, truncated. Measured on the H200 over
// 2^22 draws: the exact floor(p 2^32 / m1) and p times the double nearest
// 2^32 / m1 both differ from it now and then; this matches all.
inline unsigned int curand(curandStateMRG32k3a* s) {
  return static_cast<unsigned>(static_cast<double>(::cuda_emu::rand::mrg_next(s)) * 1.000000048662);
}
inline uint4 curand4(curandStatePhilox4_32_10* s) {
  uint4 r;
  r.x = curand(s);
  r.y = curand(s);
  r.z = curand(s);
  r.w = curand(s);
  return r;
}

// ---- uniform distributions ----------------------------------------------------------------------
namespace cuda_emu {
namespace rand {
inline float uniform(unsigned int x) { return static_cast<float>(x) * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }
inline double uniform_double_hq(unsigned int x, unsigned int y) {
  unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return static_cast<double>(z) * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}
}  // namespace rand
}  // namespace cuda_emu
inline float curand_uniform(curandStateXORWOW* s) { return ::cuda_emu::rand::uniform(curand(s)); }
inline float curand_uniform(curandStatePhilox4_32_10* s) { return ::cuda_emu::rand::uniform(curand(s)); }
inline float curand_uniform(curandStateMRG32k3a* s) {
  return static_cast<float>(::cuda_emu::rand::mrg_double(s));
}
inline double curand_uniform_double(curandStateXORWOW* s) {
  unsigned int x = curand(s);
  unsigned int y = curand(s);
  return ::cuda_emu::rand::uniform_double_hq(x, y);
}
// Philox: one draw x gives (x + 1) 2^-32 (measured on the H200; XORWOW
// takes two draws, 53 bits).
inline double curand_uniform_double(curandStatePhilox4_32_10* s) {
  return static_cast<double>(curand(s)) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
}
inline double curand_uniform_double(curandStateMRG32k3a* s) { return ::cuda_emu::rand::mrg_double(s); }
inline float4 curand_uniform4(curandStatePhilox4_32_10* s) {
  uint4 q = curand4(s);
  return make_float4(::cuda_emu::rand::uniform(q.x), ::cuda_emu::rand::uniform(q.y), ::cuda_emu::rand::uniform(q.z),
                     ::cuda_emu::rand::uniform(q.w));
}
inline double2 curand_uniform2_double(curandStatePhilox4_32_10* s) {
  uint4 q = curand4(s);
  return make_double2(::cuda_emu::rand::uniform_double_hq(q.x, q.y), ::cuda_emu::rand::uniform_double_hq(q.z, q.w));
}

// ---- the normal distribution ----------------------------------------------------------------
// cuRAND's Box-Muller, as nvcc compiles it, with CUDA's own logf, log and
// sincospi step for step (cuda_emu_math.h) and the hardware's __sincosf
// from the table measured on the H200 (cuda_emu_tables.cpp,
// src/emulate/tables.rs); tests/cuda/curand_normal_float.cu and
// curand_normal_double.cu are identical.
//   float, XORWOW and Philox: two draws x, y give u = x 2^-32 + 2^-33 and
//     v = y 2pi 2^-32 + pi 2^-32 (one fused multiply-add), then
//     sqrtf(-2 logf(u)) times __sincosf(v): the sine first, the cosine second;
//   float, MRG32k3a: u and v / 2pi are two curand_uniform;
//   double, XORWOW and Philox: four draws make two 53-bit uniforms
//     u = z 2^-53 + 2^-54 and v = z 2^-52 + 2^-53, then sqrt(-2 log(u))
//     times sincospi(v);
//   double, MRG32k3a: u and v / 2 are two curand_uniform_double.
// curand_normal(_double) returns the first of a pair and keeps the second
// for the next call; the 2 forms draw a pair, the 4 forms (Philox) two pairs
// from curand4.
//
// The log-normal is exp(mean + stddev n) with CUDA's expf or exp, step for
// step (tests/cuda/curand_normal.cu, curand_log_normal_double.cu); the float
// one's hardware 2^x comes from the tables measured on the H200. Refused
// when called, naming the caller's line: the Poisson distribution.
namespace cuda_emu {
[[noreturn]] void refuse_feature(const char* file, int line, const char* what);
namespace math {
void hardware_sincos(float x, float* s, float* c, const char* file, int line);
}
namespace rand {
inline float2 scaled_sincos(float u, float v, const char* file, int line) {
  const float s = std::sqrt(-2.0f * ::cuda_emu::math::cuda_logf(u));
  float sine, cosine;
  ::cuda_emu::math::hardware_sincos(v, &sine, &cosine, file, line);
  return make_float2(sine * s, cosine * s);
}

inline float2 box_muller(unsigned int x, unsigned int y, const char* file, int line) {
  const float v = std::fma(static_cast<float>(y), CURAND_2POW32_INV_2PI, CURAND_2POW32_INV_2PI / 2.0f);
  return scaled_sincos(uniform(x), v, file, line);
}

inline float2 box_muller(curandStateMRG32k3a* s, const char* file, int line) {
  const float u = static_cast<float>(mrg_double(s));
  const float v = static_cast<float>(mrg_double(s)) * CURAND_2PI;
  return scaled_sincos(u, v, file, line);
}

inline double2 scaled_sincospi(double u, double v) {
  const double s = std::sqrt(-2.0 * ::cuda_emu::math::cuda_log(u));
  double sine, cosine;
  ::cuda_emu::math::cuda_sincospi(v, &sine, &cosine);
  return make_double2(sine * s, cosine * s);
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  const double v = static_cast<double>(zy) * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  return scaled_sincospi(uniform_double_hq(x0, x1), v);
}

inline double2 box_muller_double(curandStateMRG32k3a* s) {
  const double u = mrg_double(s);
  const double v = mrg_double(s) * 2.0;
  return scaled_sincospi(u, v);
}

// A pair from the generator's draws: two curand for the float form, four
// (XORWOW) or one curand4 (Philox) for the double form.
template <class S>
inline float2 float_pair(S* s, const char* file, int line) {
  const unsigned int x = curand(s);
  const unsigned int y = curand(s);
  return box_muller(x, y, file, line);
}
inline float2 float_pair(curandStateMRG32k3a* s, const char* file, int line) { return box_muller(s, file, line); }
inline double2 double_pair(curandStateXORWOW* s) {
  const unsigned int x0 = curand(s);
  const unsigned int x1 = curand(s);
  const unsigned int y0 = curand(s);
  const unsigned int y1 = curand(s);
  return box_muller_double(x0, x1, y0, y1);
}
inline double2 double_pair(curandStatePhilox4_32_10* s) {
  const uint4 q = curand4(s);
  return box_muller_double(q.x, q.y, q.z, q.w);
}
inline double2 double_pair(curandStateMRG32k3a* s) { return box_muller_double(s); }

// One value at a time from pairs: the first of a new pair, keeping the
// second (and `kind` in the state's flag) for the next call, which returns
// it and clears the flag. cuRAND's flags: 1 for a normal, 2 for a
// log-normal, so that one never hands out the other's cached value.
template <class V, class MakePair>
inline V one_of_pair(int* flag, V* extra, int kind, MakePair make_pair) {
  if (*flag != kind) {
    const auto pair = make_pair();
    *extra = pair.y;
    *flag = kind;
    return pair.x;
  }
  *flag = 0;
  return *extra;
}

template <class S>
inline float normal(S* s, const char* file, int line) {
  return one_of_pair(&s->boxmuller_flag, &s->boxmuller_extra, 1, [&] { return float_pair(s, file, line); });
}

template <class S>
inline double normal_double(S* s) {
  return one_of_pair(&s->boxmuller_flag_double, &s->boxmuller_extra_double, 1, [&] { return double_pair(s); });
}

// The log-normal: exp(mean + stddev n), the sum fused, of each value n of
// a pair (CUDA's expf or exp, cuda_emu_math.h).
inline float2 log_normal_pair(float2 n, float mean, float stddev) {
  return make_float2(::cuda_emu::math::cuda_expf(std::fma(stddev, n.x, mean)),
                     ::cuda_emu::math::cuda_expf(std::fma(stddev, n.y, mean)));
}

template <class S>
inline float log_normal(S* s, float mean, float stddev, const char* file, int line) {
  return one_of_pair(&s->boxmuller_flag, &s->boxmuller_extra, 2,
                     [&] { return log_normal_pair(float_pair(s, file, line), mean, stddev); });
}

inline double2 log_normal_pair(double2 n, double mean, double stddev) {
  return make_double2(::cuda_emu::math::cuda_exp(std::fma(stddev, n.x, mean)),
                      ::cuda_emu::math::cuda_exp(std::fma(stddev, n.y, mean)));
}

template <class S>
inline double log_normal_double(S* s, double mean, double stddev) {
  return one_of_pair(&s->boxmuller_flag_double, &s->boxmuller_extra_double, 2,
                     [&] { return log_normal_pair(double_pair(s), mean, stddev); });
}

[[noreturn]] inline void refused(const char* file, int line, const char* name, const char* why) {
  const std::string what = std::string(name) + " (" + why + ")";
  refuse_feature(file, line, what.c_str());
}
}  // namespace rand
}  // namespace cuda_emu

#define CUDA_EMU_CURAND_HERE const char* file = __builtin_FILE(), int line = __builtin_LINE()
#define CUDA_EMU_CURAND_NORMALS(STATE)                                                                    \
  inline float curand_normal(STATE* s, CUDA_EMU_CURAND_HERE) { return ::cuda_emu::rand::normal(s, file, line); } \
  inline float2 curand_normal2(STATE* s, CUDA_EMU_CURAND_HERE) {                                          \
    return ::cuda_emu::rand::float_pair(s, file, line);                                                   \
  }                                                                                                       \
  inline double curand_normal_double(STATE* s) { return ::cuda_emu::rand::normal_double(s); }             \
  inline double2 curand_normal2_double(STATE* s) { return ::cuda_emu::rand::double_pair(s); }          \
  inline float curand_log_normal(STATE* s, float mean, float stddev, CUDA_EMU_CURAND_HERE) {             \
    return ::cuda_emu::rand::log_normal(s, mean, stddev, file, line);                                     \
  }                                                                                                       \
  inline float2 curand_log_normal2(STATE* s, float mean, float stddev, CUDA_EMU_CURAND_HERE) {           \
    return ::cuda_emu::rand::log_normal_pair(::cuda_emu::rand::float_pair(s, file, line), mean, stddev);  \
  }                                                                                                       \
  inline double curand_log_normal_double(STATE* s, double mean, double stddev) {                          \
    return ::cuda_emu::rand::log_normal_double(s, mean, stddev);                                          \
  }                                                                                                       \
  inline double2 curand_log_normal2_double(STATE* s, double mean, double stddev) {                        \
    return ::cuda_emu::rand::log_normal_pair(::cuda_emu::rand::double_pair(s), mean, stddev);             \
  }
CUDA_EMU_CURAND_NORMALS(curandStateXORWOW)
CUDA_EMU_CURAND_NORMALS(curandStatePhilox4_32_10)
CUDA_EMU_CURAND_NORMALS(curandStateMRG32k3a)
#undef CUDA_EMU_CURAND_NORMALS
inline float4 curand_normal4(curandStatePhilox4_32_10* s, CUDA_EMU_CURAND_HERE) {
  const uint4 q = curand4(s);
  const float2 a = ::cuda_emu::rand::box_muller(q.x, q.y, file, line);
  const float2 b = ::cuda_emu::rand::box_muller(q.z, q.w, file, line);
  return make_float4(a.x, a.y, b.x, b.y);
}
inline double4 curand_normal4_double(curandStatePhilox4_32_10* s) {
  const double2 a = ::cuda_emu::rand::double_pair(s);
  const double2 b = ::cuda_emu::rand::double_pair(s);
  return make_double4(a.x, a.y, b.x, b.y);
}
inline float4 curand_log_normal4(curandStatePhilox4_32_10* s, float mean, float stddev, CUDA_EMU_CURAND_HERE) {
  const float4 n = curand_normal4(s, file, line);
  const float2 a = ::cuda_emu::rand::log_normal_pair(make_float2(n.x, n.y), mean, stddev);
  const float2 b = ::cuda_emu::rand::log_normal_pair(make_float2(n.z, n.w), mean, stddev);
  return make_float4(a.x, a.y, b.x, b.y);
}
inline double4 curand_log_normal4_double(curandStatePhilox4_32_10* s, double mean, double stddev) {
  const double2 a = ::cuda_emu::rand::log_normal_pair(::cuda_emu::rand::double_pair(s), mean, stddev);
  const double2 b = ::cuda_emu::rand::log_normal_pair(::cuda_emu::rand::double_pair(s), mean, stddev);
  return make_double4(a.x, a.y, b.x, b.y);
}

#define CUDA_EMU_CURAND_REFUSE(RET, NAME, WHY, ...)                                                  \
  template <class S>                                                                                 \
  inline RET NAME(S*, ##__VA_ARGS__, CUDA_EMU_CURAND_HERE) {                                        \
    ::cuda_emu::rand::refused(file, line, #NAME, WHY);                                               \
  }
CUDA_EMU_CURAND_REFUSE(unsigned, curand_poisson, "a Poisson distribution: the emulator has no implementation of it", double)
CUDA_EMU_CURAND_REFUSE(uint4, curand_poisson4, "a Poisson distribution: the emulator has no implementation of it", double)
#undef CUDA_EMU_CURAND_REFUSE
#undef CUDA_EMU_CURAND_HERE

#endif  // CUDA_EMU_CURAND_KERNEL_H
