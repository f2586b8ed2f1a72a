// CUDA's tanf, atanf, asinf, acosf, rsqrtf, atan2f, hypotf and powf in device
// code, and the float overloads tan, atan, asin, acos, atan2 and hypot:
// special values printed, then 2^22 inputs of each (random bit patterns,
// [-1000, 1000] for one argument, [-1, 1] for asinf and acosf; pairs of
// random bits, of [-100, 100], and (0, 10] to [-40, 40] powers for powf)
// hashed. The emulator computes them step for step as nvcc compiles them
// (src/emulate/shim/cuda_emu_math.h), with the hardware's float reciprocal
// and reciprocal square root (MUFU.RCP, MUFU.RSQ) read from the tables
// measured by tests/cuda/fitting/mufu_rcp_rsq.cu.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

typedef unsigned long long u64;
const int kN = 1 << 22;
const int kUnary = 5, kBinary = 3;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// c: 0 random bits, 1 [-1000, 1000] ([-1, 1] for asinf, acosf: f 2, 3).
__device__ float input(int c, int f, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __uint_as_float((unsigned)r);
  float unit = (float)(r >> 40) * 0x1p-24f - 0.5f;
  return (f == 2 || f == 3) ? unit * 2.0f : unit * 2000.0f;
}

__device__ float unary(int f, float x) {
  switch (f) {
    case 0: return tanf(x);
    case 1: return atanf(x);
    case 2: return asinf(x);
    case 3: return acosf(x);
    default: return rsqrtf(x);
  }
}

// c: 0 random bits, 1 [-100, 100] both, 2 x in (0, 10], y in [-40, 40].
__device__ void pair(int c, u64 i, float* x, float* y) {
  u64 r = mix(i), s = mix(i + 0x100000000ull);
  if (c == 0) {
    *x = __uint_as_float((unsigned)r);
    *y = __uint_as_float((unsigned)(r >> 32));
    return;
  }
  float a = (float)(r >> 40) * 0x1p-24f, b = (float)(s >> 40) * 0x1p-24f - 0.5f;
  if (c == 1) {
    *x = (a - 0.5f) * 200.0f;
    *y = b * 200.0f;
  } else {
    *x = 10.0f - a * 10.0f;
    *y = b * 80.0f;
  }
}

__device__ float binary(int f, float x, float y) {
  switch (f) {
    case 0: return atan2f(x, y);
    case 1: return hypotf(x, y);
    default: return powf(x, y);
  }
}

__global__ void many_unary(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  out[i] = __float_as_uint(unary(f, input(c, f, i)));
}

__global__ void many_binary(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float x, y;
  pair(c, i, &x, &y);
  out[i] = __float_as_uint(binary(f, x, y));
}

// The C++ float overloads, hashed together with the C names' results.
__global__ void overloads(unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float x = input(1, 0, i), y = input(1, 0, i + kN), u = input(1, 2, i);
  out[i] = __float_as_uint(tan(x)) ^ (__float_as_uint(atan(x)) * 3u) ^ (__float_as_uint(asin(u)) * 5u) ^
           (__float_as_uint(acos(u)) * 7u) ^ (__float_as_uint(atan2(x, y)) * 11u) ^
           (__float_as_uint(hypot(x, y)) * 13u);
}

const int kSpecials = 24;
__constant__ float specials_x[kSpecials] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 0.56f, 0.5600001f,
                                            2.0f, -2.0f, 0.785398185f, 1.57079637f, 105615.0f, 1e10f,
                                            3.4e38f, -3.4e38f, 1e-45f, -1e-45f, 1.1754942e-38f, 1e-30f,
                                            __builtin_huge_valf(), -__builtin_huge_valf(), __builtin_nanf(""),
                                            3.0f};

__global__ void specials(unsigned* out) {
  for (int k = 0; k < kSpecials; ++k) {
    for (int f = 0; f < kUnary; ++f) out[k * kUnary + f] = __float_as_uint(unary(f, specials_x[k]));
  }
  unsigned* pairs = out + kSpecials * kUnary;
  const int kPairs = 12;
  const float ps[kPairs] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, 3.0f, -3.0f,
                            __builtin_huge_valf(), -__builtin_huge_valf(), __builtin_nanf("")};
  for (int a = 0; a < kPairs; ++a)
    for (int b = 0; b < kPairs; ++b)
      for (int f = 0; f < kBinary; ++f) pairs[(a * kPairs + b) * kBinary + f] = __float_as_uint(binary(f, ps[a], ps[b]));
}

static u64 fnv(const void* p, size_t bytes) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  u64 h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

int main() {
  unsigned* d_out;
  cudaMalloc(&d_out, kN * 4);
  const int kSpecialWords = kSpecials * kUnary + 144 * kBinary;
  specials<<<1, 1>>>(d_out);
  static unsigned special[kSpecialWords];
  cudaMemcpy(special, d_out, sizeof special, cudaMemcpyDeviceToHost);
  for (int k = 0; k < kSpecials; ++k)
    printf("special %2d: tanf atanf asinf acosf rsqrtf: %08x %08x %08x %08x %08x\n", k, special[k * kUnary],
           special[k * kUnary + 1], special[k * kUnary + 2], special[k * kUnary + 3], special[k * kUnary + 4]);
  const unsigned* pairs = special + kSpecials * kUnary;
  for (int a = 0; a < 12; ++a) {
    printf("pairs %2d: atan2f hypotf powf:", a);
    for (int b = 0; b < 12; ++b)
      printf(" %08x,%08x,%08x", pairs[(a * 12 + b) * 3], pairs[(a * 12 + b) * 3 + 1], pairs[(a * 12 + b) * 3 + 2]);
    printf("\n");
  }
  static unsigned host[kN];
  const char* unary_names[] = {"tanf", "atanf", "asinf", "acosf", "rsqrtf"};
  const char* unary_classes[] = {"random bits", "[-1000, 1000] ([-1, 1])"};
  for (int f = 0; f < kUnary; ++f)
    for (int c = 0; c < 2; ++c) {
      many_unary<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", unary_names[f], unary_classes[c], fnv(host, sizeof host));
    }
  const char* binary_names[] = {"atan2f", "hypotf", "powf"};
  const char* binary_classes[] = {"random bits", "[-100, 100]^2", "(0, 10] x [-40, 40]"};
  for (int f = 0; f < kBinary; ++f)
    for (int c = 0; c < 3; ++c) {
      many_binary<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", binary_names[f], binary_classes[c], fnv(host, sizeof host));
    }
  overloads<<<kN / 256, 256>>>(d_out);
  cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
  printf("tan atan asin acos atan2 hypot (float overloads): hash %016llx\n", fnv(host, sizeof host));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
