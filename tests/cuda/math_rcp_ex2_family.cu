// CUDA's tanhf, sinhf, coshf, expm1f, erff, erfcf, normcdff, asinhf,
// acoshf, atanhf and logbf in device code, and the float overloads tanh and
// erf: special values printed, then 2^18 inputs of each (random bit
// patterns, [-100, 100], and [-1, 1]) hashed, and a GELU-like use summed.
// The emulator computes them step for step as nvcc compiles them
// (src/emulate/shim/cuda_emu_math.h), with the hardware's 2^x, reciprocal
// and reciprocal square root read from tables measured on the H200
// (tests/cuda/fitting/mufu_ex2.cu, mufu_rcp_rsq.cu).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

typedef unsigned long long u64;
const int kN = 1 << 18;
const int kFunctions = 13;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// c: 0 random bits, 1 [-100, 100], 2 [-1, 1].
__device__ float input(int c, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __uint_as_float((unsigned)r);
  float unit = (float)(r >> 40) * 0x1p-24f - 0.5f;
  return c == 1 ? unit * 200.0f : unit * 2.0f;
}

__device__ float function(int f, float x) {
  switch (f) {
    case 0: return tanhf(x);
    case 1: return sinhf(x);
    case 2: return coshf(x);
    case 3: return expm1f(x);
    case 4: return erff(x);
    case 5: return erfcf(x);
    case 6: return normcdff(x);
    case 7: return asinhf(x);
    case 8: return acoshf(x);
    case 9: return atanhf(x);
    case 10: return logbf(x);
    case 11: return tanh(x);  // the float overloads
    default: return erf(x);
  }
}

__global__ void many(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  out[i] = __float_as_uint(function(f, input(c, i)));
}

// Each block sums GELU(z) = z normcdf(z), in its tanh form, over its
// threads' inputs in a fixed order.
__global__ void gelu(float* sums) {
  __shared__ float part[256];
  float z = input(2, blockIdx.x * 256 + threadIdx.x) * 3.0f;
  part[threadIdx.x] = 0.5f * z * (1.0f + tanhf(0.7978845608f * (z + 0.044715f * z * z * z)));
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < 256; ++k) s += part[k];
    sums[blockIdx.x] = s;
  }
}

const int kSpecials = 32;
__constant__ float specials_x[kSpecials] = {
    0.0f,        -0.0f,        1.0f,        -1.0f,         0.5f,          -0.5f,        1e-45f,      -1e-45f,
    1.1754942e-38f, 1e-8f,     -1e-8f,      88.7228394f,   88.7228470f,   -87.3365479f, -103.278931f, -103.972084f,
    127.999992f, 128.0f,       -126.0f,     -126.000008f,  -149.0f,       -150.0f,      38.5318413f,  -45.1545143f,
    3.4e38f,     -3.4e38f,     0.693147182f, 2.30258512f,  __builtin_huge_valf(), -__builtin_huge_valf(),
    __builtin_nanf(""), 10.0f};

__global__ void specials(unsigned* out) {
  for (int k = 0; k < kSpecials; ++k)
    for (int f = 0; f < kFunctions; ++f) out[k * kFunctions + f] = __float_as_uint(function(f, specials_x[k]));
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
  static unsigned special[kSpecials * kFunctions];
  specials<<<1, 1>>>(d_out);
  cudaMemcpy(special, d_out, sizeof special, cudaMemcpyDeviceToHost);
  for (int k = 0; k < kSpecials; ++k) {
    printf("special %2d: tanh sinh cosh expm1 erf erfc normcdf asinh acosh atanh logb tanh erf:", k);
    for (int f = 0; f < kFunctions; ++f) printf(" %08x", special[k * kFunctions + f]);
    printf("\n");
  }
  static unsigned host[kN];
  const char* names[] = {"tanhf", "sinhf", "coshf", "expm1f", "erff", "erfcf", "normcdff", "asinhf", "acoshf", "atanhf", "logbf", "tanh (float)", "erf (float)"};
  const char* classes[] = {"random bits", "[-100, 100]", "[-1, 1]"};
  for (int f = 0; f < kFunctions; ++f)
    for (int c = 0; c < 3; ++c) {
      many<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", names[f], classes[c], fnv(host, sizeof host));
    }
  const int kBlocks = 4096;
  float* d_sums;
  cudaMalloc(&d_sums, kBlocks * 4);
  gelu<<<kBlocks, 256>>>(d_sums);
  static float sums[kBlocks];
  cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
  double total = 0;
  for (int b = 0; b < kBlocks; ++b) total += sums[b];
  printf("GELU sums: first %.9g, mean %.9g, hash %016llx\n", sums[0], total / (kBlocks * 256.0),
         fnv(sums, sizeof sums));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
