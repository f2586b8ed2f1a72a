// Math functions in a __host__ __device__ function and in macros, run by a
// kernel and by the host. nvcc compiles such a function twice: the device's
// copy calls the GPU's fminf, logf, ... and fuses a*b + c; the host's calls
// the C library and rounds the product. The device lines give the GPU's
// results over edge values (signed zeros, NaNs of both kinds, infinities)
// and ordinary ones; the host lines give only what any C library agrees on
// (ordinary operands, no transcendental), with the unfused product.
// `evaluate_once` has a static local, so an emulator cannot copy its body
// for device code and must tell device from host as it runs.
// Left out on purpose: arithmetic on NaNs (the GPU makes 0x7fffffff, x86
// keeps a NaN's payload), a product-sum in `evaluate_once` (compiled once,
// it is fused in host code too), and pairs of two double NaNs (which one
// fmin gives depends on nvcc's operand order: it takes fmin(y, x) and
// fmin(x, y) for the same).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#define CLAMP01(x) fminf(fmaxf((x), 0.0f), 1.0f)
#define DMIN(a, b) fmin(a, b)

struct Result {
  float mn, mx, fused, lg, ex, sn, pw, clamp;
  double dmn, dmx, dmacro;
};

__host__ __device__ Result evaluate(float a, float b, double x, double y, float p, float q) {
  Result r;
  r.mn = fminf(a, b);
  r.mx = fmaxf(a, b);
  r.fused = p * q + 1.0f;
  r.lg = logf(fabsf(a) + 1.0f);
  r.ex = expf(b * 0.25f);
  r.sn = sinf(a);
  r.pw = powf(fabsf(b) + 0.5f, 1.7f);
  r.clamp = CLAMP01(a);
  r.dmn = fmin(x, y);
  r.dmx = fmax(x, y);
  r.dmacro = DMIN(y, x);
  return r;
}

__host__ __device__ Result evaluate_once(float a, float b, double x, double y, float p,
                                        float q) {
  static const float kOne = 1.0f;
  Result r;
  r.mn = fminf(b, a);
  r.mx = fmaxf(b, a);
  r.fused = p - q * kOne;
  r.lg = logf(fabsf(b) + kOne);
  r.ex = expf(a * 0.25f);
  r.sn = sinf(b);
  r.pw = powf(fabsf(a) + 0.5f, 1.7f);
  r.clamp = CLAMP01(b);
  r.dmn = fmin(y, x);
  r.dmx = fmax(y, x);
  r.dmacro = DMIN(x, y);
  return r;
}

constexpr int kF = 14, kD = 12, kEdge = kF * kF, kOrdinary = 64, kN = kEdge + kOrdinary;
const unsigned kFloat[kF] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x3f800000,
                             0xbf800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
                             0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345};
const unsigned long long kDouble[kD] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0xfff8000000000000ull, 0x7ff8000000012345ull, 0x7ff0000000000001ull, 0xfff0000000012345ull};

__global__ void run(const float* a, const float* b, const double* x, const double* y,
                    const float* p, const float* q, Result* r, Result* once) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= kN) return;
  r[k] = evaluate(a[k], b[k], x[k], y[k], p[k], q[k]);
  once[k] = evaluate_once(a[k], b[k], x[k], y[k], p[k], q[k]);
}

unsigned bits(float v) {
  unsigned u;
  memcpy(&u, &v, 4);
  return u;
}
unsigned long long bits(double v) {
  unsigned long long u;
  memcpy(&u, &v, 8);
  return u;
}

void print_device(const char* name, int k, const Result& r) {
  printf("%s %d: %08x %08x %08x %08x %08x %08x %08x %08x %016llx %016llx %016llx\n", name, k,
         bits(r.mn), bits(r.mx), bits(r.fused), bits(r.lg), bits(r.ex), bits(r.sn), bits(r.pw),
         bits(r.clamp), bits(r.dmn), bits(r.dmx), bits(r.dmacro));
}

void print_host(const char* name, int k, const Result& r) {
  printf("%s %d: %08x %08x %08x %08x %016llx %016llx %016llx\n", name, k, bits(r.mn), bits(r.mx),
         bits(r.fused), bits(r.clamp), bits(r.dmn), bits(r.dmx), bits(r.dmacro));
}

int main() {
  float *a, *b, *p, *q;
  double *x, *y;
  Result *r, *once;
  cudaMallocManaged(&a, kN * sizeof(float));
  cudaMallocManaged(&b, kN * sizeof(float));
  cudaMallocManaged(&x, kN * sizeof(double));
  cudaMallocManaged(&y, kN * sizeof(double));
  cudaMallocManaged(&p, kN * sizeof(float));
  cudaMallocManaged(&q, kN * sizeof(float));
  cudaMallocManaged(&r, kN * sizeof(Result));
  cudaMallocManaged(&once, kN * sizeof(Result));
  for (int k = 0; k < kEdge; ++k) {
    memcpy(&a[k], &kFloat[k / kF], 4);
    memcpy(&b[k], &kFloat[k % kF], 4);
    memcpy(&x[k], &kDouble[(k / kF) % kD], 8);
    memcpy(&y[k], &kDouble[(k % kF) % kD], 8);
    if (x[k] != x[k] && y[k] != y[k]) y[k] = 0.5;
  }
  unsigned state = 12345;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;
    return static_cast<int>(state >> 8) % 20001 - 10000;
  };
  for (int k = kEdge; k < kN; ++k) {
    a[k] = next() / 3719.0f;
    b[k] = next() / 1237.0f;
    x[k] = next() / 71.0;
    y[k] = next() / 113.0;
  }
  for (int k = 0; k < kN; ++k) {
    p[k] = next() / 2833.0f;
    q[k] = next() / 1571.0f;
  }
  run<<<(kN + 127) / 128, 128>>>(a, b, x, y, p, q, r, once);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int k = 0; k < kN; ++k) print_device("device", k, r[k]);
  for (int k = 0; k < kN; ++k) print_device("device once", k, once[k]);
  for (int k = kEdge; k < kN; ++k) print_host("host", k, evaluate(a[k], b[k], x[k], y[k], p[k], q[k]));
  for (int k = kEdge; k < kN; ++k)
    print_host("host once", k, evaluate_once(a[k], b[k], x[k], y[k], p[k], q[k]));
  return 0;
}
