// The DPX functions of CUDA 12 (__vimax3_s32 ... __vibmin_u16x2: three-way
// minimum and maximum, add then compare, with and without a floor of zero, on
// a 32-bit integer or two halfwords), each applied to 65536 operand triples
// built from edge values (every combination of 16 values in a's two halfwords
// and b's, c from the same table) and to 65536 pseudo-random triples. The
// __vibmax/__vibmin flags are folded into the stored word (s32/u32: a set flag
// XORs it with 0x5a5a5a5a; 16x2: the hi and lo flags flip bits 31 and 30).
// One line per function: its results on four chosen triples, then an FNV-1a
// hash of the edge results and of the random ones.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__device__ unsigned flags(bool hi, bool lo) { return (hi ? 2u : 0u) | (lo ? 1u : 0u); }
__device__ unsigned picked32(unsigned v, bool p) { return v ^ (p ? 0x5a5a5a5au : 0u); }

#define ALL(X)                                                                              \
  X(vimax3_s32, __vimax3_s32(sa, sb, sc)) X(vimax3_u32, __vimax3_u32(a, b, c))            \
  X(vimin3_s32, __vimin3_s32(sa, sb, sc)) X(vimin3_u32, __vimin3_u32(a, b, c))            \
  X(vimax3_s32_relu, __vimax3_s32_relu(sa, sb, sc))                                       \
  X(vimin3_s32_relu, __vimin3_s32_relu(sa, sb, sc))                                       \
  X(vimax_s32_relu, __vimax_s32_relu(sa, sb)) X(vimin_s32_relu, __vimin_s32_relu(sa, sb)) \
  X(viaddmax_s32, __viaddmax_s32(sa, sb, sc)) X(viaddmax_u32, __viaddmax_u32(a, b, c))    \
  X(viaddmin_s32, __viaddmin_s32(sa, sb, sc)) X(viaddmin_u32, __viaddmin_u32(a, b, c))    \
  X(viaddmax_s32_relu, __viaddmax_s32_relu(sa, sb, sc))                                   \
  X(viaddmin_s32_relu, __viaddmin_s32_relu(sa, sb, sc))                                   \
  X(vimax3_s16x2, __vimax3_s16x2(a, b, c)) X(vimax3_u16x2, __vimax3_u16x2(a, b, c))       \
  X(vimin3_s16x2, __vimin3_s16x2(a, b, c)) X(vimin3_u16x2, __vimin3_u16x2(a, b, c))       \
  X(vimax3_s16x2_relu, __vimax3_s16x2_relu(a, b, c))                                      \
  X(vimin3_s16x2_relu, __vimin3_s16x2_relu(a, b, c))                                      \
  X(vimax_s16x2_relu, __vimax_s16x2_relu(a, b)) X(vimin_s16x2_relu, __vimin_s16x2_relu(a, b)) \
  X(viaddmax_s16x2, __viaddmax_s16x2(a, b, c)) X(viaddmax_u16x2, __viaddmax_u16x2(a, b, c)) \
  X(viaddmin_s16x2, __viaddmin_s16x2(a, b, c)) X(viaddmin_u16x2, __viaddmin_u16x2(a, b, c)) \
  X(viaddmax_s16x2_relu, __viaddmax_s16x2_relu(a, b, c))                                  \
  X(viaddmin_s16x2_relu, __viaddmin_s16x2_relu(a, b, c))                                  \
  X(vibmax_s32, (v = __vibmax_s32(sa, sb, &p), picked32(v, p)))                                    \
  X(vibmax_u32, (v = __vibmax_u32(a, b, &p), picked32(v, p)))                                      \
  X(vibmin_s32, (v = __vibmin_s32(sa, sb, &p), picked32(v, p)))                                    \
  X(vibmin_u32, (v = __vibmin_u32(a, b, &p), picked32(v, p)))                                      \
  X(vibmax_s16x2, (v = __vibmax_s16x2(a, b, &hi, &lo), v ^ flags(hi, lo) << 30))                   \
  X(vibmax_u16x2, (v = __vibmax_u16x2(a, b, &hi, &lo), v ^ flags(hi, lo) << 30))                   \
  X(vibmin_s16x2, (v = __vibmin_s16x2(a, b, &hi, &lo), v ^ flags(hi, lo) << 30))                   \
  X(vibmin_u16x2, (v = __vibmin_u16x2(a, b, &hi, &lo), v ^ flags(hi, lo) << 30))

#define COUNT(name, expr) +1
constexpr int kFunctions = 0 ALL(COUNT);
constexpr int kEdge = 65536, kRandom = 65536, kInputs = kEdge + kRandom;

// Halfword values at the edges: zero, one, the signed and unsigned extremes
// and their neighbours, the middle of each half.
__device__ const unsigned kHalf[16] = {0x0000, 0x0001, 0x0002, 0x3fff, 0x4000, 0x7ffe, 0x7fff, 0x8000,
                                       0x8001, 0xbfff, 0xc000, 0xfffe, 0xffff, 0x1234, 0x5555, 0xaaaa};

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

__global__ void apply(unsigned* out, unsigned* operands) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kInputs) return;
  unsigned a, b, c;
  const unsigned n0 = i & 15, n1 = (i >> 4) & 15, n2 = (i >> 8) & 15, n3 = (i >> 12) & 15;
  if (i < kEdge) {
    a = kHalf[n0] | kHalf[n1] << 16;
    b = kHalf[n2] | kHalf[n3] << 16;
    c = kHalf[(n0 + n3) & 15] | kHalf[(n1 + 2 * n2) & 15] << 16;
  } else {
    a = mix(3 * i + 1);
    b = mix(3 * i + 2);
    c = mix(3 * i + 3);
  }
  operands[3 * i] = a;
  operands[3 * i + 1] = b;
  operands[3 * i + 2] = c;
  const int sa = static_cast<int>(a), sb = static_cast<int>(b), sc = static_cast<int>(c);
  bool p, hi, lo;
  unsigned v;  // a result whose flags are read after it (the comma orders them)
  int f = 0;
#define STORE(name, expr) out[(f++) * kInputs + i] = static_cast<unsigned>(expr);
  ALL(STORE)
#undef STORE
}

unsigned fnv(const unsigned* p, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k) h = (h ^ ((p[i] >> (8 * k)) & 0xff)) * 16777619u;
  return h;
}

int main() {
  unsigned *out, *operands;
  cudaMalloc(&out, sizeof(unsigned) * kFunctions * kInputs);
  cudaMalloc(&operands, sizeof(unsigned) * 3 * kInputs);
  apply<<<kInputs / 256, 256>>>(out, operands);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("%s\n", cudaGetErrorString(err));
    return 1;
  }
  std::vector<unsigned> host(static_cast<size_t>(kFunctions) * kInputs), ops(3 * kInputs);
  cudaMemcpy(host.data(), out, sizeof(unsigned) * host.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(ops.data(), operands, sizeof(unsigned) * ops.size(), cudaMemcpyDeviceToHost);
  // The chosen triples: extremes against each other, and two random ones.
  const int chosen[4] = {0x7667, 0xc6c7, kEdge + 5, kEdge + 77};
  printf("operands:");
  for (int c : chosen) printf(" %08x,%08x,%08x", ops[3 * c], ops[3 * c + 1], ops[3 * c + 2]);
  printf("\n");
  const char* names[] = {
#define NAME(name, expr) #name,
      ALL(NAME)
#undef NAME
  };
  for (int f = 0; f < kFunctions; ++f) {
    const unsigned* r = host.data() + static_cast<size_t>(f) * kInputs;
    printf("%-19s", names[f]);
    for (int c : chosen) printf(" %08x", r[c]);
    printf("  edge %08x random %08x\n", fnv(r, kEdge), fnv(r + kEdge, kRandom));
  }
  cudaFree(out);
  cudaFree(operands);
  return 0;
}
