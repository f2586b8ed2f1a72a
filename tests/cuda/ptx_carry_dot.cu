// Extended-precision and dot-product integer PTX: carry chains (add.cc, addc,
// sub.cc, subc, mad.lo.cc, madc.hi and .cc forms, 32 and 64 bits, signed and
// unsigned), as 128-bit additions, subtractions and a 64x64->128 product
// written the way bignum code writes them, and the carry or borrow read back as
// a value; dp4a and dp2a.lo/.hi with every signedness and CUDA's __dp4a,
// __dp2a_lo, __dp2a_hi (scalar and vector forms); add.sat.s32, sub.sat.s32, sad
// (and __sad, __usad), mul24.lo/.hi and mad24. Over 4096 inputs (edge values,
// then random bits), each result checked on the host against the PTX ISA's
// definition (unsigned __int128 for the carry chains) and hashed: one line per
// operation, `NAME: MISMATCHES of N, hash H`.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kN = 4096;
constexpr int kOps = 24;
const char* const kNames[kOps] = {
    "add128.u32",  "sub128.u32",   "mul64x64.u32", "add128.u64",  "carry.u32",   "borrow.u32",
    "add128.s32",  "madc.hi.s64",  "dp4a.s32.s32", "dp4a.u32.u32", "dp4a.s32.u32", "dp4a.u32.s32",
    "dp2a.lo.s32", "dp2a.hi.u32",  "dp2a.lo.us",   "dp2a.hi.su",  "__dp4a",      "__dp2a",
    "add.sat.s32", "sub.sat.s32",  "sad",          "mul24.lo",    "mul24.hi",    "mad24"};

// Four results a thread per operation (a 128-bit value's words, or one word).
struct Out {
  unsigned w[kOps][4];
};

__global__ void run(const unsigned* a, const unsigned* b, const unsigned* c, const unsigned* d,
                    Out* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= kN) return;
  const unsigned a0 = a[k], a1 = b[k], a2 = c[k], a3 = d[k];
  const unsigned b0 = d[(k + 1) % kN], b1 = c[(k + 7) % kN], b2 = b[(k + 13) % kN],
                 b3 = a[(k + 29) % kN];
  unsigned* o;
  // 128-bit sum of two four-word numbers.
  o = out[k].w[0];
  asm("add.cc.u32 %0, %4, %8;\n\t"
      "addc.cc.u32 %1, %5, %9;\n\t"
      "addc.cc.u32 %2, %6, %10;\n\t"
      "addc.u32 %3, %7, %11;"
      : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
  // 128-bit difference.
  o = out[k].w[1];
  asm("sub.cc.u32 %0, %4, %8;\n\t"
      "subc.cc.u32 %1, %5, %9;\n\t"
      "subc.cc.u32 %2, %6, %10;\n\t"
      "subc.u32 %3, %7, %11;"
      : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
  // (a1:a0) * (b1:b0), 128 bits, schoolbook on 32-bit words.
  o = out[k].w[2];
  asm("{\n\t"
      "mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.u32 %2, %4, %7, 0;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
      "addc.u32 %3, 0, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, %3;\n\t"
      "}"
      : "=&r"(o[0]), "=&r"(o[1]), "=&r"(o[2]), "=&r"(o[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
  // 128-bit sum on 64-bit words.
  {
    const unsigned long long x0 = (unsigned long long)a1 << 32 | a0,
                             x1 = (unsigned long long)a3 << 32 | a2,
                             y0 = (unsigned long long)b1 << 32 | b0,
                             y1 = (unsigned long long)b3 << 32 | b2;
    unsigned long long s0, s1;
    asm("add.cc.u64 %0, %2, %4;\n\taddc.u64 %1, %3, %5;"
        : "=l"(s0), "=l"(s1)
        : "l"(x0), "l"(x1), "l"(y0), "l"(y1));
    o = out[k].w[3];
    o[0] = (unsigned)s0, o[1] = (unsigned)(s0 >> 32), o[2] = (unsigned)s1,
    o[3] = (unsigned)(s1 >> 32);
  }
  // The carry and the borrow as values.
  o = out[k].w[4];
  asm("add.cc.u32 %1, %2, %3;\n\taddc.u32 %0, 0, 0;" : "=r"(o[0]), "=r"(o[1]) : "r"(a0), "r"(b0));
  o = out[k].w[5];
  asm("sub.cc.u32 %1, %2, %3;\n\tsubc.u32 %0, 0, 0;" : "=r"(o[0]), "=r"(o[1]) : "r"(a0), "r"(b0));
  // Signed words carry the same bits.
  o = out[k].w[6];
  asm("add.cc.s32 %0, %2, %4;\n\taddc.s32 %1, %3, %5;"
      : "=r"(o[0]), "=r"(o[1])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
  // madc.hi of signed 64-bit words after a carry.
  {
    long long lo, hi;
    const long long x = (long long)((unsigned long long)a1 << 32 | a0),
                    y = (long long)((unsigned long long)b3 << 32 | b2),
                    z = (long long)((unsigned long long)a3 << 32 | b1);
    asm("mad.lo.cc.s64 %0, %2, %3, %4;\n\tmadc.hi.s64 %1, %2, %3, %4;"
        : "=l"(lo), "=l"(hi)
        : "l"(x), "l"(y), "l"(z));
    o = out[k].w[7];
    o[0] = (unsigned)lo, o[1] = (unsigned)((unsigned long long)lo >> 32), o[2] = (unsigned)hi,
    o[3] = (unsigned)((unsigned long long)hi >> 32);
  }
  // Dot products.
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(out[k].w[8][0]) : "r"(a0), "r"(b0), "r"(a2));
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(out[k].w[9][0]) : "r"(a0), "r"(b0), "r"(a2));
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(out[k].w[10][0]) : "r"(a0), "r"(b0), "r"(a2));
  asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(out[k].w[11][0]) : "r"(a0), "r"(b0), "r"(a2));
  asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(out[k].w[12][0]) : "r"(a1), "r"(b1), "r"(a3));
  asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(out[k].w[13][0]) : "r"(a1), "r"(b1), "r"(a3));
  asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(out[k].w[14][0]) : "r"(a1), "r"(b1), "r"(a3));
  asm("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(out[k].w[15][0]) : "r"(a1), "r"(b1), "r"(a3));
  {
    char4 ca, cb;
    uchar4 ua, ub;
    short2 sa;
    ushort2 usa;
    memcpy(&ca, &a2, 4), memcpy(&cb, &b2, 4), memcpy(&ua, &a2, 4), memcpy(&ub, &b2, 4);
    memcpy(&sa, &a3, 4), memcpy(&usa, &a3, 4);
    o = out[k].w[16];
    o[0] = (unsigned)__dp4a((int)a2, (int)b2, (int)a0);
    o[1] = __dp4a(a2, b2, a0);
    o[2] = (unsigned)__dp4a(ca, cb, (int)a0);
    o[3] = __dp4a(ua, ub, a0);
    o = out[k].w[17];
    o[0] = (unsigned)__dp2a_lo((int)a3, (int)b2, (int)a0);
    o[1] = __dp2a_hi(a3, b2, a0);
    o[2] = (unsigned)__dp2a_hi(sa, cb, (int)a0);
    o[3] = __dp2a_lo(usa, ub, a0);
  }
  // Saturation, absolute differences, 24-bit products.
  asm("add.sat.s32 %0, %1, %2;" : "=r"(out[k].w[18][0]) : "r"(a0), "r"(b0));
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(out[k].w[19][0]) : "r"(a0), "r"(b0));
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(out[k].w[20][0]) : "r"(a0), "r"(b0), "r"(a1));
  asm("sad.s32 %0, %1, %2, %3;" : "=r"(out[k].w[20][1]) : "r"(a0), "r"(b0), "r"(a1));
  out[k].w[20][2] = __sad((int)a0, (int)b0, a1);
  out[k].w[20][3] = __usad(a0, b0, a1);
  asm("mul24.lo.u32 %0, %1, %2;" : "=r"(out[k].w[21][0]) : "r"(a0), "r"(b0));
  asm("mul24.lo.s32 %0, %1, %2;" : "=r"(out[k].w[21][1]) : "r"(a0), "r"(b0));
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(out[k].w[22][0]) : "r"(a0), "r"(b0));
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(out[k].w[22][1]) : "r"(a0), "r"(b0));
  asm("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(out[k].w[23][0]) : "r"(a0), "r"(b0), "r"(a1));
  asm("mad24.hi.s32 %0, %1, %2, %3;" : "=r"(out[k].w[23][1]) : "r"(a0), "r"(b0), "r"(a1));
}

// ---- The PTX ISA's definitions, on the host ---------------------------------------
typedef unsigned __int128 u128;

u128 join(unsigned w0, unsigned w1, unsigned w2, unsigned w3) {
  return (u128)w3 << 96 | (u128)w2 << 64 | (u128)w1 << 32 | w0;
}
void split(u128 v, unsigned* o) {
  for (int i = 0; i < 4; ++i) o[i] = (unsigned)(v >> (32 * i));
}
unsigned dp(unsigned a, unsigned b, unsigned c, bool sa, bool sb, int lanes, int from) {
  unsigned d = c;
  for (int i = 0; i < lanes; ++i) {
    const int bits = lanes == 4 ? 8 : 16;
    const unsigned ra = (a >> (bits * i)) & ((1u << bits) - 1);
    const unsigned rb = (b >> (8 * (i + from))) & 0xffu;
    const long long va = sa ? (bits == 8 ? (long long)(signed char)ra : (long long)(short)ra) : ra;
    const long long vb = sb ? (long long)(signed char)rb : rb;
    d += (unsigned)(va * vb);
  }
  return d;
}
long long s24(unsigned x) { return (long long)((int)(x << 8) >> 8); }

void reference(const unsigned* in, Out* r) {
  const unsigned a0 = in[0], a1 = in[1], a2 = in[2], a3 = in[3], b0 = in[4], b1 = in[5],
                 b2 = in[6], b3 = in[7];
  memset(r, 0, sizeof *r);
  const u128 x = join(a0, a1, a2, a3), y = join(b0, b1, b2, b3);
  split(x + y, r->w[0]);
  split(x - y, r->w[1]);
  split((u128)((unsigned long long)a1 << 32 | a0) * ((unsigned long long)b1 << 32 | b0), r->w[2]);
  split(x + y, r->w[3]);
  r->w[4][0] = ((unsigned long long)a0 + b0) >> 32, r->w[4][1] = a0 + b0;
  r->w[5][0] = a0 < b0 ? 0xffffffffu : 0u, r->w[5][1] = a0 - b0;
  const unsigned long long s = ((unsigned long long)a1 << 32 | a0) + ((unsigned long long)b1 << 32 | b0);
  r->w[6][0] = (unsigned)s, r->w[6][1] = (unsigned)(s >> 32);
  {
    const long long xx = (long long)((unsigned long long)a1 << 32 | a0),
                    yy = (long long)((unsigned long long)b3 << 32 | b2),
                    zz = (long long)((unsigned long long)a3 << 32 | b1);
    const __int128 p = (__int128)xx * yy;
    const unsigned long long plo = (unsigned long long)p, phi = (unsigned long long)(p >> 64);
    const unsigned long long lo = plo + (unsigned long long)zz;
    const unsigned long long hi = phi + (unsigned long long)zz + (lo < plo ? 1 : 0);
    r->w[7][0] = (unsigned)lo, r->w[7][1] = (unsigned)(lo >> 32), r->w[7][2] = (unsigned)hi,
    r->w[7][3] = (unsigned)(hi >> 32);
  }
  r->w[8][0] = dp(a0, b0, a2, true, true, 4, 0);
  r->w[9][0] = dp(a0, b0, a2, false, false, 4, 0);
  r->w[10][0] = dp(a0, b0, a2, true, false, 4, 0);
  r->w[11][0] = dp(a0, b0, a2, false, true, 4, 0);
  r->w[12][0] = dp(a1, b1, a3, true, true, 2, 0);
  r->w[13][0] = dp(a1, b1, a3, false, false, 2, 2);
  r->w[14][0] = dp(a1, b1, a3, false, true, 2, 0);
  r->w[15][0] = dp(a1, b1, a3, true, false, 2, 2);
  r->w[16][0] = dp(a2, b2, a0, true, true, 4, 0), r->w[16][1] = dp(a2, b2, a0, false, false, 4, 0);
  r->w[16][2] = r->w[16][0], r->w[16][3] = r->w[16][1];
  r->w[17][0] = dp(a3, b2, a0, true, true, 2, 0), r->w[17][1] = dp(a3, b2, a0, false, false, 2, 2);
  r->w[17][2] = dp(a3, b2, a0, true, true, 2, 2), r->w[17][3] = dp(a3, b2, a0, false, false, 2, 0);
  const long long sum = (long long)(int)a0 + (int)b0, difference = (long long)(int)a0 - (int)b0;
  auto sat = [](long long v) { return (unsigned)(int)(v > 2147483647 ? 2147483647 : v < -2147483648ll ? -2147483648ll : v); };
  r->w[18][0] = sat(sum);
  r->w[19][0] = sat(difference);
  r->w[20][0] = a1 + (a0 > b0 ? a0 - b0 : b0 - a0);
  r->w[20][1] = a1 + ((int)a0 > (int)b0 ? a0 - b0 : b0 - a0);
  r->w[20][2] = r->w[20][1], r->w[20][3] = r->w[20][0];
  const unsigned long long pu = (unsigned long long)(a0 & 0xffffff) * (b0 & 0xffffff);
  const long long ps = s24(a0) * s24(b0);
  r->w[21][0] = (unsigned)pu, r->w[21][1] = (unsigned)ps;
  r->w[22][0] = (unsigned)(pu >> 16), r->w[22][1] = (unsigned)((unsigned long long)ps >> 16);
  r->w[23][0] = (unsigned)pu + a1, r->w[23][1] = (unsigned)((unsigned long long)ps >> 16) + a1;
}

int main() {
  unsigned *in[4];
  Out* out;
  for (auto& p : in) cudaMallocManaged(&p, kN * sizeof(unsigned));
  cudaMallocManaged(&out, kN * sizeof(Out));
  const unsigned kEdge[] = {0u,          1u,          0x7fffffffu, 0x80000000u, 0xffffffffu,
                            0xfffffffeu, 0x00ffffffu, 0x00800000u, 0xff800000u, 0x80808080u,
                            0x7f7f7f7fu, 0x7fff8000u, 0x12345678u};
  const int edges = sizeof kEdge / sizeof kEdge[0];
  unsigned state = 66;
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < 4; ++j) {
      state = state * 1664525u + 1013904223u;
      in[j][k] = k < edges * edges ? kEdge[(j % 2 ? k / edges : k % edges)] : state ^ (state >> 15);
    }
  run<<<kN / 128, 128>>>(in[0], in[1], in[2], in[3], out);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  unsigned mismatches[kOps] = {};
  unsigned long long hash[kOps];
  for (auto& h : hash) h = 1469598103934665603ull;
  for (int k = 0; k < kN; ++k) {
    const unsigned operands[8] = {in[0][k], in[1][k], in[2][k], in[3][k],
                                  in[3][(k + 1) % kN], in[2][(k + 7) % kN],
                                  in[1][(k + 13) % kN], in[0][(k + 29) % kN]};
    Out r;
    reference(operands, &r);
    for (int op = 0; op < kOps; ++op) {
      if (memcmp(r.w[op], out[k].w[op], sizeof r.w[op]) != 0) {
        if (mismatches[op] == 0)
          printf("%s: first mismatch at %d: %08x %08x %08x %08x, the ISA says %08x %08x %08x %08x\n",
                 kNames[op], k, out[k].w[op][0], out[k].w[op][1], out[k].w[op][2],
                 out[k].w[op][3], r.w[op][0], r.w[op][1], r.w[op][2], r.w[op][3]);
        ++mismatches[op];
      }
      for (int i = 0; i < 4; ++i) hash[op] = (hash[op] ^ out[k].w[op][i]) * 1099511628211ull;
    }
  }
  for (int op = 0; op < kOps; ++op)
    printf("%s: %u of %d differ from the ISA, hash %016llx\n", kNames[op], mismatches[op], kN,
           hash[op]);
  printf("inputs 7: %08x %08x %08x %08x, 128-bit product %08x %08x %08x %08x\n", in[0][7],
         in[1][7], in[2][7], in[3][7], out[7].w[2][0], out[7].w[2][1], out[7].w[2][2],
         out[7].w[2][3]);
  return 0;
}
