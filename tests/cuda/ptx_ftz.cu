// Inline PTX float arithmetic with .ftz and .sat, float min, max, abs and
// neg, and setp with a second predicate (p|q) and a boolean operation, over
// every pair of 16 edge values: zeros, subnormals, FLT_MIN and its
// neighbours, a product that rounds up to FLT_MIN (0x3f7fffff * FLT_MIN),
// one, FLT_MAX, infinities and NaN. One line per operation and first
// operand: the result's bits for each second operand.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kV = 16;
constexpr int kOps = 24;
__constant__ unsigned kBits[kV] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x80800000,
                                   0x00c00000, 0x3f7fffff, 0x3f800000, 0xbfc00000, 0x3f000000, 0x7f7fffff,
                                   0x7f800000, 0xff800000, 0x7fc00000, 0x1f800000};

__device__ float f(unsigned u) { return __uint_as_float(u); }

__global__ void arithmetic(unsigned* out) {
  const int i = threadIdx.x / kV, j = threadIdx.x % kV;
  const float a = f(kBits[i]), b = f(kBits[j]), c = f(kBits[(i + j) % kV]);
  float r[kOps - 1];
  asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r[0]) : "f"(a), "f"(b));
  asm("add.rz.ftz.f32 %0, %1, %2;" : "=f"(r[1]) : "f"(a), "f"(b));
  asm("add.rm.ftz.f32 %0, %1, %2;" : "=f"(r[2]) : "f"(a), "f"(b));
  asm("add.rp.ftz.f32 %0, %1, %2;" : "=f"(r[3]) : "f"(a), "f"(b));
  asm("sub.rn.ftz.f32 %0, %1, %2;" : "=f"(r[4]) : "f"(a), "f"(b));
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r[5]) : "f"(a), "f"(b));
  asm("mul.rz.ftz.f32 %0, %1, %2;" : "=f"(r[6]) : "f"(a), "f"(b));
  asm("mul.rm.ftz.f32 %0, %1, %2;" : "=f"(r[7]) : "f"(a), "f"(b));
  asm("mul.rp.ftz.f32 %0, %1, %2;" : "=f"(r[8]) : "f"(a), "f"(b));
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(r[9]) : "f"(a), "f"(b), "f"(c));
  asm("fma.rz.ftz.f32 %0, %1, %2, %3;" : "=f"(r[10]) : "f"(a), "f"(b), "f"(c));
  asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(r[11]) : "f"(a), "f"(b));
  asm("sqrt.rn.ftz.f32 %0, %1;" : "=f"(r[12]) : "f"(a));
  asm("rcp.rn.ftz.f32 %0, %1;" : "=f"(r[13]) : "f"(b));
  asm("add.rn.sat.f32 %0, %1, %2;" : "=f"(r[14]) : "f"(a), "f"(b));
  asm("mul.rn.ftz.sat.f32 %0, %1, %2;" : "=f"(r[15]) : "f"(a), "f"(b));
  asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r[16]) : "f"(a), "f"(b), "f"(c));
  asm("min.f32 %0, %1, %2;" : "=f"(r[17]) : "f"(a), "f"(b));
  asm("max.f32 %0, %1, %2;" : "=f"(r[18]) : "f"(a), "f"(b));
  asm("min.ftz.f32 %0, %1, %2;" : "=f"(r[19]) : "f"(a), "f"(b));
  asm("max.ftz.f32 %0, %1, %2;" : "=f"(r[20]) : "f"(a), "f"(b));
  asm("abs.f32 %0, %1;" : "=f"(r[21]) : "f"(b));
  asm("neg.f32 %0, %1;" : "=f"(r[22]) : "f"(b));
  unsigned* o = out + threadIdx.x * kOps;
  for (int k = 0; k < kOps - 1; ++k) o[k] = __float_as_uint(r[k]);
  // Predicates, as bits: setp.lt.ftz p|q; setp.gt.and p|q with !c; setp.equ.or;
  // setp.ne.xor.s32 on the bits.
  const unsigned odd = (i + j) & 1;
  unsigned bits;
  asm("{\n\t.reg .pred p, q, r, s, t, u, v, w, c;\n\t"
      "setp.ne.u32 c, %4, 0;\n\t"
      "setp.lt.ftz.f32 p|q, %1, %2;\n\t"
      "setp.gt.and.f32 r|s, %1, %2, !c;\n\t"
      "setp.equ.or.f32 t|u, %1, %2, c;\n\t"
      "setp.ne.xor.s32 v|w, %3, 0, c;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q add.u32 %0, %0, 2;\n\t"
      "@r add.u32 %0, %0, 4;\n\t"
      "@s add.u32 %0, %0, 8;\n\t"
      "@t add.u32 %0, %0, 16;\n\t"
      "@u add.u32 %0, %0, 32;\n\t"
      "@v add.u32 %0, %0, 64;\n\t"
      "@w add.u32 %0, %0, 128;\n\t"
      "}"
      : "=r"(bits)
      : "f"(a), "f"(b), "r"(kBits[i] ^ kBits[j]), "r"(odd));
  o[kOps - 1] = bits;
}

int main() {
  const char* names[kOps] = {"add.rn.ftz", "add.rz.ftz", "add.rm.ftz", "add.rp.ftz", "sub.rn.ftz", "mul.rn.ftz",
                             "mul.rz.ftz", "mul.rm.ftz", "mul.rp.ftz", "fma.rn.ftz", "fma.rz.ftz", "div.rn.ftz",
                             "sqrt.rn.ftz", "rcp.rn.ftz", "add.rn.sat", "mul.rn.ftz.sat", "fma.rn.sat", "min",
                             "max", "min.ftz", "max.ftz", "abs", "neg", "setp bits"};
  unsigned* d_out;
  cudaMalloc(&d_out, kV * kV * kOps * sizeof(unsigned));
  arithmetic<<<1, kV * kV>>>(d_out);
  static unsigned out[kV * kV * kOps];
  cudaError_t err = cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int k = 0; k < kOps; ++k)
    for (int i = 0; i < kV; ++i) {
      printf("%s %d:", names[k], i);
      for (int j = 0; j < kV; ++j) printf(" %08x", out[(i * kV + j) * kOps + k]);
      printf("\n");
    }
  return 0;
}
