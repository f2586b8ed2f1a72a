// mufu_half_approx.cu: measures the hardware approximations of the 16-bit
// float formats on all 65536 inputs each: tanh.approx.f16,
// tanh.approx.bf16 and ex2.approx.ftz.bf16 (and their x2 forms). For each
// it asks whether the result is the float approximation (tanh.approx.f32,
// ex2.approx.ftz.f32) of the widened input rounded to the format to
// nearest or toward zero (as ex2.approx.f16 is: mufu_ex2_f16.cu), counting
// mismatches and printing the first few; whether the x2 form gives each
// lane the scalar's result; and writes the 65536 results of each raw
// (little-endian 16-bit, by input bits) to DIR/NAME.bin with their FNV-1a
// hash, so that a table can stand in where no rule fits.
//
//   nvcc -O2 -arch=sm_90 -o m tests/cuda/fitting/mufu_half_approx.cu && ./m DIR
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

constexpr int kN = 65536;

__global__ void measure(uint16_t* th, uint16_t* tb, uint16_t* eb, float* fth, float* ftb, float* feb,
                        uint32_t* pth, uint32_t* ptb, uint32_t* peb) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint16_t h = static_cast<uint16_t>(i);
  uint16_t r;
  asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(h));
  th[i] = r;
  asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(h));
  tb[i] = r;
  asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(h));
  eb[i] = r;
  float x, y;
  asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(h));
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  fth[i] = y;
  x = __uint_as_float(static_cast<uint32_t>(h) << 16);
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  ftb[i] = y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  feb[i] = y;
  const uint32_t packed = i | ((~i & 0xffffu) << 16);
  uint32_t p;
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(p) : "r"(packed));
  pth[i] = p;
  asm("tanh.approx.bf16x2 %0, %1;" : "=r"(p) : "r"(packed));
  ptb[i] = p;
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(p) : "r"(packed));
  peb[i] = p;
}

uint16_t half_bits(__half h) {
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}
uint16_t bf16_bits(__nv_bfloat16 h) {
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}

bool is_nan_half(uint32_t i) { return (i & 0x7c00) == 0x7c00 && (i & 0x3ff); }
bool is_nan_bf16(uint32_t i) { return (i & 0x7f80) == 0x7f80 && (i & 0x7f); }

void report(const char* name, const uint16_t* got, const float* wide, bool half, const uint32_t* pair,
            const std::string& dir) {
  const char* modes[2] = {"rn", "rz"};
  for (int m = 0; m < 2; ++m) {
    int miss = 0, shown = 0;
    for (uint32_t i = 0; i < kN; ++i) {
      if (half ? is_nan_half(i) : is_nan_bf16(i)) continue;
      const float w = wide[i];
      const uint16_t c = half ? half_bits(m ? __float2half_rz(w) : __float2half_rn(w))
                              : bf16_bits(m ? __float2bfloat16_rz(w) : __float2bfloat16_rn(w));
      if (c != got[i]) {
        ++miss;
        if (shown++ < 6) printf("  %s %s: %04x -> %04x, float rounded %04x (float %08x)\n", name, modes[m], i, got[i], c, *reinterpret_cast<const uint32_t*>(&w));
      }
    }
    printf("%s: float then %s: %d mismatches of the non-NaN inputs\n", name, modes[m], miss);
  }
  int nan_results = 0, lanes = 0;
  uint16_t nan_seen = 0;
  for (uint32_t i = 0; i < kN; ++i) {
    if (half ? is_nan_half(i) : is_nan_bf16(i)) {
      if (nan_results++ == 0) nan_seen = got[i];
      else if (got[i] != nan_seen) nan_seen = 0xffff;
    }
    const uint32_t hi = ~i & 0xffffu;
    if ((pair[i] & 0xffff) != got[i] || (pair[i] >> 16) != got[hi]) ++lanes;
  }
  printf("%s: NaN inputs give %04x (ffff: not all the same); x2 lanes unlike the scalar: %d\n", name, nan_seen, lanes);
  uint64_t hash = 1469598103934665603ull;
  for (uint32_t i = 0; i < kN; ++i)
    for (int b = 0; b < 2; ++b) hash = (hash ^ ((got[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
  const std::string path = dir + "/" + name + ".bin";
  FILE* out = fopen(path.c_str(), "wb");
  if (!out || fwrite(got, 2, kN, out) != static_cast<size_t>(kN)) printf("cannot write %s\n", path.c_str());
  if (out) fclose(out);
  printf("%s.bin: 65536 results, FNV-1a %016llx\n", name, static_cast<unsigned long long>(hash));
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  uint16_t *th, *tb, *eb;
  float *fth, *ftb, *feb;
  uint32_t *pth, *ptb, *peb;
  cudaMallocManaged(&th, kN * 2);
  cudaMallocManaged(&tb, kN * 2);
  cudaMallocManaged(&eb, kN * 2);
  cudaMallocManaged(&fth, kN * 4);
  cudaMallocManaged(&ftb, kN * 4);
  cudaMallocManaged(&feb, kN * 4);
  cudaMallocManaged(&pth, kN * 4);
  cudaMallocManaged(&ptb, kN * 4);
  cudaMallocManaged(&peb, kN * 4);
  measure<<<kN / 256, 256>>>(th, tb, eb, fth, ftb, feb, pth, ptb, peb);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  report("tanh_f16", th, fth, true, pth, dir);
  report("tanh_bf16", tb, ftb, false, ptb, dir);
  report("ex2_bf16", eb, feb, false, peb, dir);
  return 0;
}
