// mufu_tanh.cu: explores the hardware's hyperbolic tangent (tanh.approx.f32,
// SASS MUFU.TANH) over all 2^32 floats, to decide how the emulator can hold
// it: whether it is odd (r(-x) = -r(x)), where it gives x itself and where
// 1, whether it never falls as x grows (so that the first input of each
// result, its breakpoints, describe it, as for MUFU.EX2), how many
// breakpoints there are, how many low bits its results use, and what NaNs
// and infinities give. Writes the breakpoints of the non-negative floats
// between "gives x" and "gives 1" to DIR/tanh_breakpoints.bin (pairs of
// little-endian 32-bit words: input bits, result bits) and the FNV-1a hash
// of all 2^32 results.
//
//   nvcc -O2 -arch=sm_90 -o mufu_tanh tests/cuda/fitting/mufu_tanh.cu && ./mufu_tanh DIR
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

__global__ void evaluate(uint32_t base, uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = __uint_as_float(base + i);
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  out[i] = __float_as_uint(r);
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const uint64_t chunk = 1ull << 28;
  uint32_t* d;
  if (cudaMalloc(&d, chunk * 4) != cudaSuccess) return 1;
  std::vector<uint32_t> pos(1ull << 31), neg(1ull << 31);
  for (uint64_t base = 0; base < (1ull << 32); base += chunk) {
    evaluate<<<chunk / 256, 256>>>(static_cast<uint32_t>(base), d);
    uint32_t* dst = base < (1ull << 31) ? &pos[base] : &neg[base - (1ull << 31)];
    if (cudaMemcpy(dst, d, chunk * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
      printf("launch failed\n");
      return 1;
    }
  }
  uint64_t hash = 1469598103934665603ull;
  for (int half = 0; half < 2; ++half)
    for (uint32_t v : half ? neg : pos)
      for (int b = 0; b < 4; ++b) hash = (hash ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ull;
  uint64_t not_odd = 0;
  for (uint64_t i = 0; i < (1ull << 31); ++i)
    if (neg[i] != (pos[i] ^ 0x80000000u) && !(i > 0x7f800000u && neg[i] == pos[i])) {
      if (not_odd++ < 5) printf("not odd: %08llx -> %08x, negated -> %08x\n", (unsigned long long)i, pos[i], neg[i]);
    }
  printf("not odd (NaNs apart): %llu\n", (unsigned long long)not_odd);
  const uint32_t inf = 0x7f800000u;
  printf("r(+0) %08x r(-0) %08x r(+inf) %08x r(-inf) %08x r(7f800001) %08x r(7fc00000) %08x r(ffc12345) %08x\n",
         pos[0], neg[0], pos[inf], neg[inf], pos[inf + 1], pos[0x7fc00000u], neg[0x7fc12345u]);
  uint64_t nan_other = 0;
  for (uint64_t i = inf + 1; i < (1ull << 31); ++i) nan_other += pos[i] != 0x7fffffffu;
  printf("positive NaN inputs not giving 0x7fffffff: %llu\n", (unsigned long long)nan_other);
  uint32_t first_not_x = 0;
  while (first_not_x < inf && pos[first_not_x] == first_not_x) ++first_not_x;
  uint32_t first_one = inf;
  while (first_one > 0 && pos[first_one - 1] == 0x3f800000u) --first_one;
  printf("gives x below %08x (r there %08x), gives 1 from %08x\n", first_not_x, pos[first_not_x], first_one);
  uint64_t x_again = 0, falls = 0, breaks = 0, above = 0;
  uint32_t low_bits_or = 0;
  int trailing_hist[33] = {0};
  std::vector<uint32_t> pairs;
  for (uint32_t i = first_not_x; i < first_one; ++i) {
    x_again += pos[i] == i;
    above += pos[i] > 0x3f800000u;
    if (i > first_not_x && pos[i] < pos[i - 1]) {
      if (falls++ < 5) printf("falls: %08x -> %08x after %08x\n", i, pos[i], pos[i - 1]);
    }
    if (i == first_not_x || pos[i] != pos[i - 1]) {
      ++breaks;
      pairs.push_back(i);
      pairs.push_back(pos[i]);
      low_bits_or |= pos[i] & 0xfffu;
      ++trailing_hist[pos[i] ? __builtin_ctz(pos[i]) : 32];
    }
  }
  printf("between: x again %llu, falls %llu, above 1 %llu, breakpoints %llu, low 12 bits or %03x\n",
         (unsigned long long)x_again, (unsigned long long)falls, (unsigned long long)above,
         (unsigned long long)breaks, low_bits_or);
  printf("trailing zero bits of the results:");
  for (int t = 0; t <= 32; ++t)
    if (trailing_hist[t]) printf(" %d:%d", t, trailing_hist[t]);
  printf("\n");
  for (size_t k = 0; k < 40 && 2 * k < pairs.size(); ++k) printf("  %08x -> %08x\n", pairs[2 * k], pairs[2 * k + 1]);
  FILE* out = fopen((dir + "/tanh_breakpoints.bin").c_str(), "wb");
  if (!out || fwrite(pairs.data(), 4, pairs.size(), out) != pairs.size()) {
    printf("cannot write %s/tanh_breakpoints.bin\n", dir.c_str());
    return 1;
  }
  fclose(out);
  printf("all 2^32 results: FNV-1a %016llx\n", (unsigned long long)hash);
  return 0;
}
