// C++'s overloaded math functions (sin, cos, atan2, ... by their C++ names, on
// floats) in a __host__ __device__ function and in macros, run by a kernel and
// by the host. nvcc compiles such a function twice: the device's copy calls the
// GPU's float overloads (sinf, cosf, ...), the host's the C library's. The
// device lines give the GPU's results over ordinary, large, tiny and edge
// inputs; the host lines only what any C library agrees on (exact results).
// `shade_once` has a static local, so an emulator cannot copy its body for
// device code and must tell device from host as it runs; the macros are used
// in the kernel and on the host. Every argument is a float: the double
// overloads are the C library's in an emulator too (and it says so).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#define SPIN(x) (sin(x) * cos(x))
#define ANGLE(y, x) std::atan2(y, x)

constexpr int kR = 12;

struct Shade {
  float r[kR];
};

__host__ __device__ Shade shade(float a, float b) {
  Shade s;
  s.r[0] = sin(a);
  s.r[1] = cos(a);
  s.r[2] = tan(a * 0.5f);
  s.r[3] = atan2(a, b);
  s.r[4] = log2(fabsf(b) + 1.0f);
  s.r[5] = tanh(a);
  s.r[6] = exp2(b - 7.0f);
  s.r[7] = cbrt(b + 20.0f);
  s.r[8] = std::erf(a);
  s.r[9] = asinh(a);
  s.r[10] = hypot(a, b);
  s.r[11] = sinh(a * 0.25f);
  return s;
}

__host__ __device__ Shade shade_once(float a, float b) {
  static const float kHalf = 0.5f;
  Shade s;
  s.r[0] = cos(b);
  s.r[1] = sin(b);
  s.r[2] = std::tan(b * kHalf);
  s.r[3] = atan2(b, a);
  s.r[4] = log2(fabsf(a) + 1.0f);
  s.r[5] = tanh(b);
  s.r[6] = exp2(a - 7.0f);
  s.r[7] = cbrt(a + 20.0f);
  s.r[8] = erf(b);
  s.r[9] = asinh(b);
  s.r[10] = hypot(b, a);
  s.r[11] = cosh(b * 0.25f);
  return s;
}

constexpr int kEdge = 16, kN = kEdge + 256;
const unsigned kEdgeBits[kEdge] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000,
                                   0x3f000000, 0x0da24260, 0x807fffff, 0x7f800000,
                                   0xff800000, 0x7fc00000, 0x42c80000, 0xc2c80000,
                                   0x49742400, 0x40490fdb, 0x60ad78ec, 0xaedbe6ff};

__global__ void run(const float* a, const float* b, Shade* s, Shade* once, float* spin,
                    float* angle) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= kN) return;
  s[k] = shade(a[k], b[k]);
  once[k] = shade_once(a[k], b[k]);
  spin[k] = SPIN(a[k]);
  angle[k] = ANGLE(b[k], a[k]);
}

unsigned bits(float v) {
  unsigned u;
  memcpy(&u, &v, 4);
  return u;
}

void print(const char* name, int k, const Shade& s) {
  printf("%s %d:", name, k);
  for (int i = 0; i < kR; ++i) printf(" %08x", bits(s.r[i]));
  printf("\n");
}

int main() {
  float *a, *b, *spin, *angle;
  Shade *s, *once;
  cudaMallocManaged(&a, kN * sizeof(float));
  cudaMallocManaged(&b, kN * sizeof(float));
  cudaMallocManaged(&spin, kN * sizeof(float));
  cudaMallocManaged(&angle, kN * sizeof(float));
  cudaMallocManaged(&s, kN * sizeof(Shade));
  cudaMallocManaged(&once, kN * sizeof(Shade));
  // Edge values against each other (a), and against 3.5 (b); then random
  // bits with exponents from 2^-27 to 2^23, either sign.
  unsigned state = 2026;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  for (int k = 0; k < kN; ++k) {
    unsigned ua, ub;
    if (k < kEdge) {
      ua = kEdgeBits[k];
      ub = k % 2 ? kEdgeBits[kEdge - 1 - k] : 0x40600000;
    } else {
      ua = (next() & 0x807fffffu) | ((100u + next() % 51u) << 23);
      ub = (next() & 0x807fffffu) | ((100u + next() % 51u) << 23);
    }
    memcpy(&a[k], &ua, 4);
    memcpy(&b[k], &ub, 4);
  }
  run<<<(kN + 127) / 128, 128>>>(a, b, s, once, spin, angle);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int k = 0; k < kN; ++k) print("device", k, s[k]);
  for (int k = 0; k < kN; ++k) print("device once", k, once[k]);
  for (int k = 0; k < kN; ++k) printf("device macros %d: %08x %08x\n", k, bits(spin[k]), bits(angle[k]));
  // Exact on any C library: sin 0, cos 0, tan 0, atan2(0, 7), log2 8, tanh 0,
  // exp2 0, cbrt 27, erf 0, asinh 0, hypot(0, 7), sinh 0 (cosh 0 in once).
  print("host", 0, shade(0.0f, 7.0f));
  print("host once", 0, shade_once(7.0f, 0.0f));
  printf("host macros: %08x %08x\n", bits(SPIN(0.0f)), bits(ANGLE(0.0f, 1.0f)));
  return 0;
}
