// mufu_ex2_f16.cu: measures the hardware's half-precision 2^x
// (ex2.approx.f16, SASS MUFU.EX2.F16) on all 65536 halves, which differs
// from cuda_fp16.h's hexp2 (the float ex2.approx.ftz nudged up and rounded)
// on 19417 of them (tests/cuda/ptx_half_approx.cu). It asks whether the
// result is the float hardware 2^x of the half (ex2.approx.ftz.f32, whose
// table the emulator has) rounded to half by one of the four rounding
// modes, counting each candidate's mismatches and printing the first few;
// whether the .f16x2 form gives each lane the scalar's result; and writes
// the 65536 results raw (little-endian 16-bit, by input bits) to
// DIR/ex2_f16.bin with their FNV-1a hash, for a table if no rule fits.
//
//   nvcc -O2 -arch=sm_90 -o mufu_ex2_f16 tests/cuda/fitting/mufu_ex2_f16.cu && ./mufu_ex2_f16 DIR
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

__global__ void measure(unsigned short* f16, unsigned short* cand, unsigned* pair) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short h = static_cast<unsigned short>(i);
  unsigned short r;
  asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(h));
  f16[i] = r;
  float x, e;
  asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(h));
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x));
  unsigned short c0, c1, c2, c3;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(c0) : "f"(e));
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(c1) : "f"(e));
  asm("cvt.rm.f16.f32 %0, %1;" : "=h"(c2) : "f"(e));
  asm("cvt.rp.f16.f32 %0, %1;" : "=h"(c3) : "f"(e));
  cand[4 * i] = c0;
  cand[4 * i + 1] = c1;
  cand[4 * i + 2] = c2;
  cand[4 * i + 3] = c3;
  const unsigned packed = i | ((~i & 0xffffu) << 16);
  unsigned p;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(p) : "r"(packed));
  pair[i] = p;
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const int n = 65536;
  unsigned short *f16, *cand;
  unsigned* pair;
  cudaMallocManaged(&f16, n * 2);
  cudaMallocManaged(&cand, n * 8);
  cudaMallocManaged(&pair, n * 4);
  measure<<<n / 256, 256>>>(f16, cand, pair);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  const char* names[4] = {"rn", "rz", "rm", "rp"};
  for (int c = 0; c < 4; ++c) {
    int miss = 0, shown = 0;
    for (int i = 0; i < n; ++i) {
      if ((i & 0x7c00) == 0x7c00 && (i & 0x3ff)) continue;  // NaN inputs counted below
      if (cand[4 * i + c] != f16[i]) {
        ++miss;
        if (shown++ < 6) printf("  %s: %04x -> %04x, float ex2 rounded %04x\n", names[c], i, f16[i], cand[4 * i + c]);
      }
    }
    printf("candidate ex2.approx.ftz.f32 then cvt.%s.f16: %d mismatches of the non-NaN halves\n", names[c], miss);
  }
  int nan_other = 0, lanes = 0;
  for (int i = 0; i < n; ++i) {
    if ((i & 0x7c00) == 0x7c00 && (i & 0x3ff) && f16[i] != 0x7fff) ++nan_other;
    const unsigned hi = ~i & 0xffffu;
    if ((pair[i] & 0xffff) != f16[i] || (pair[i] >> 16) != f16[hi]) ++lanes;
  }
  printf("NaN inputs not giving 0x7fff: %d; f16x2 lanes unlike the scalar: %d\n", nan_other, lanes);
  unsigned long long hash = 1469598103934665603ull;
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < 2; ++b) hash = (hash ^ ((f16[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
  FILE* out = fopen((dir + "/ex2_f16.bin").c_str(), "wb");
  if (!out || fwrite(f16, 2, n, out) != static_cast<size_t>(n)) {
    printf("cannot write %s/ex2_f16.bin\n", dir.c_str());
    return 1;
  }
  fclose(out);
  printf("ex2_f16.bin: 65536 results, FNV-1a %016llx\n", hash);
  return 0;
}
