// The math API's SIMD intrinsics (__vabs2 ... __vsubus4): each one applied to
// operand pairs built from lane values at the edges of the lane's range (every
// combination of 16 values in two halfwords of a and two of b, and likewise in
// two bytes) and to 65536 pseudo-random pairs. One line per intrinsic: its results on four chosen
// pairs, then an FNV-1a hash of the edge results and of the random ones. A
// difference names the intrinsic and, most often, shows the lane that differs.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define UNARY(X) X(vabs2, __vabs2(a)) X(vabs4, __vabs4(a)) X(vabsss2, __vabsss2(a)) \
  X(vabsss4, __vabsss4(a)) X(vneg2, __vneg2(a)) X(vneg4, __vneg4(a))                \
  X(vnegss2, __vnegss2(a)) X(vnegss4, __vnegss4(a))
#define BINARY(X)                                                                         \
  X(vabsdiffs2, __vabsdiffs2(a, b)) X(vabsdiffs4, __vabsdiffs4(a, b))                     \
  X(vabsdiffu2, __vabsdiffu2(a, b)) X(vabsdiffu4, __vabsdiffu4(a, b))                     \
  X(vadd2, __vadd2(a, b)) X(vadd4, __vadd4(a, b)) X(vaddss2, __vaddss2(a, b))             \
  X(vaddss4, __vaddss4(a, b)) X(vaddus2, __vaddus2(a, b)) X(vaddus4, __vaddus4(a, b))     \
  X(vsub2, __vsub2(a, b)) X(vsub4, __vsub4(a, b)) X(vsubss2, __vsubss2(a, b))             \
  X(vsubss4, __vsubss4(a, b)) X(vsubus2, __vsubus2(a, b)) X(vsubus4, __vsubus4(a, b))     \
  X(vavgs2, __vavgs2(a, b)) X(vavgs4, __vavgs4(a, b)) X(vavgu2, __vavgu2(a, b))           \
  X(vavgu4, __vavgu4(a, b)) X(vhaddu2, __vhaddu2(a, b)) X(vhaddu4, __vhaddu4(a, b))       \
  X(vmaxs2, __vmaxs2(a, b)) X(vmaxs4, __vmaxs4(a, b)) X(vmaxu2, __vmaxu2(a, b))           \
  X(vmaxu4, __vmaxu4(a, b)) X(vmins2, __vmins2(a, b)) X(vmins4, __vmins4(a, b))           \
  X(vminu2, __vminu2(a, b)) X(vminu4, __vminu4(a, b)) X(vsads2, __vsads2(a, b))           \
  X(vsads4, __vsads4(a, b)) X(vsadu2, __vsadu2(a, b)) X(vsadu4, __vsadu4(a, b))           \
  X(vcmpeq2, __vcmpeq2(a, b)) X(vcmpeq4, __vcmpeq4(a, b)) X(vcmpne2, __vcmpne2(a, b))     \
  X(vcmpne4, __vcmpne4(a, b)) X(vcmpges2, __vcmpges2(a, b)) X(vcmpges4, __vcmpges4(a, b)) \
  X(vcmpgeu2, __vcmpgeu2(a, b)) X(vcmpgeu4, __vcmpgeu4(a, b))                             \
  X(vcmpgts2, __vcmpgts2(a, b)) X(vcmpgts4, __vcmpgts4(a, b))                             \
  X(vcmpgtu2, __vcmpgtu2(a, b)) X(vcmpgtu4, __vcmpgtu4(a, b))                             \
  X(vcmples2, __vcmples2(a, b)) X(vcmples4, __vcmples4(a, b))                             \
  X(vcmpleu2, __vcmpleu2(a, b)) X(vcmpleu4, __vcmpleu4(a, b))                             \
  X(vcmplts2, __vcmplts2(a, b)) X(vcmplts4, __vcmplts4(a, b))                             \
  X(vcmpltu2, __vcmpltu2(a, b)) X(vcmpltu4, __vcmpltu4(a, b))                             \
  X(vseteq2, __vseteq2(a, b)) X(vseteq4, __vseteq4(a, b)) X(vsetne2, __vsetne2(a, b))     \
  X(vsetne4, __vsetne4(a, b)) X(vsetges2, __vsetges2(a, b)) X(vsetges4, __vsetges4(a, b)) \
  X(vsetgeu2, __vsetgeu2(a, b)) X(vsetgeu4, __vsetgeu4(a, b))                             \
  X(vsetgts2, __vsetgts2(a, b)) X(vsetgts4, __vsetgts4(a, b))                             \
  X(vsetgtu2, __vsetgtu2(a, b)) X(vsetgtu4, __vsetgtu4(a, b))                             \
  X(vsetles2, __vsetles2(a, b)) X(vsetles4, __vsetles4(a, b))                             \
  X(vsetleu2, __vsetleu2(a, b)) X(vsetleu4, __vsetleu4(a, b))                             \
  X(vsetlts2, __vsetlts2(a, b)) X(vsetlts4, __vsetlts4(a, b))                             \
  X(vsetltu2, __vsetltu2(a, b)) X(vsetltu4, __vsetltu4(a, b))
#define ALL(X) UNARY(X) BINARY(X)

#define COUNT(name, expr) +1
constexpr int kFunctions = 0 ALL(COUNT);
constexpr int kHalfEdge = 65536, kByteEdge = 65536, kEdge = kHalfEdge + kByteEdge;
constexpr int kRandom = 65536, kInputs = kEdge + kRandom;

// Lane values at the edges: zero, one, the signed and unsigned extremes and
// their neighbours, the middle of each half.
__device__ const unsigned kHalf[16] = {0x0000, 0x0001, 0x0002, 0x3fff, 0x4000, 0x7ffe, 0x7fff, 0x8000,
                                       0x8001, 0xbfff, 0xc000, 0xfffe, 0xffff, 0x1234, 0x5555, 0xaaaa};
__device__ const unsigned kByte[16] = {0x00, 0x01, 0x02, 0x3f, 0x40, 0x7e, 0x7f, 0x80,
                                       0x81, 0xbf, 0xc0, 0xfe, 0xff, 0x12, 0x55, 0xaa};

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
  unsigned a, b;
  const unsigned n0 = i & 15, n1 = (i >> 4) & 15, n2 = (i >> 8) & 15, n3 = (i >> 12) & 15;
  if (i < kHalfEdge) {
    // Every combination of the edge values in a's two halfwords and b's.
    a = kHalf[n0] | kHalf[n1] << 16;
    b = kHalf[n2] | kHalf[n3] << 16;
  } else if (i < kEdge) {
    // Every combination in a's low two bytes and b's low two; the high two
    // bytes of each are the other's low two, crossed.
    a = kByte[n0] | kByte[n1] << 8 | kByte[n2] << 16 | kByte[n3] << 24;
    b = kByte[n3] | kByte[n2] << 8 | kByte[n1] << 16 | kByte[n0] << 24;
  } else {
    a = mix(2 * i + 1);
    b = mix(2 * i + 2);
  }
  operands[2 * i] = a;
  operands[2 * i + 1] = b;
  int f = 0;
#define STORE(name, expr) out[(f++) * kInputs + i] = (expr);
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
  cudaMalloc(&operands, sizeof(unsigned) * 2 * kInputs);
  apply<<<kInputs / 256, 256>>>(out, operands);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("%s\n", cudaGetErrorString(err));
    return 1;
  }
  std::vector<unsigned> host(static_cast<size_t>(kFunctions) * kInputs), ops(2 * kInputs);
  cudaMemcpy(host.data(), out, sizeof(unsigned) * host.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(ops.data(), operands, sizeof(unsigned) * ops.size(), cudaMemcpyDeviceToHost);
  // The chosen pairs: halfword extremes against each other, byte extremes
  // against each other, and two random pairs.
  const int chosen[4] = {0x7667, kHalfEdge + 0x1c67, kEdge + 5, kEdge + 77};
  printf("operands:");
  for (int c : chosen) printf(" %08x,%08x", ops[2 * c], ops[2 * c + 1]);
  printf("\n");
  const char* names[] = {
#define NAME(name, expr) #name,
      ALL(NAME)
#undef NAME
  };
  for (int f = 0; f < kFunctions; ++f) {
    const unsigned* r = host.data() + static_cast<size_t>(f) * kInputs;
    printf("%-11s", names[f]);
    for (int c : chosen) printf(" %08x", r[c]);
    printf("  edge %08x random %08x\n", fnv(r, kEdge), fnv(r + kEdge, kRandom));
  }
  cudaFree(out);
  cudaFree(operands);
  return 0;
}
