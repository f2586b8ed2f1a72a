// CUDA's erfinvf, erfcinvf and normcdfinvf in device code (the emulator
// computes them as nvcc builds them, src/emulate/shim/cuda_emu_math.h, on
// the hardware log2 and reciprocal square root): special values printed,
// then 2^18 inputs of each over its domain, near its ends and over random
// bit patterns hashed, and a use (normal quantiles of a stratified sample,
// squared and summed per block). Its first recording (2026-12-03 19:32 UTC)
// also called them in host code: nvcc's host build gave other results for
// 4 of 6 arguments (normcdfinvf(0.5) was -0), which is why the emulator
// refuses them outside device code.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

typedef unsigned long long u64;
const int kN = 1 << 18;
const int kFunctions = 3;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// c: 0 random bits, 1 the function's domain (erfinvf (-1, 1), erfcinvf
// (0, 2), normcdfinvf (0, 1)), 2 its ends (within 2^-12 of them).
__device__ float input(int c, int f, u64 i) {
  u64 r = mix(i + 977 * f);
  if (c == 0) return __uint_as_float((unsigned)r);
  float unit = (float)(r >> 40) * 0x1p-24f;
  if (c == 2) unit = (r & 1) ? unit * 0x1p-12f : 1.0f - unit * 0x1p-12f;
  return f == 0 ? 2.0f * unit - 1.0f : f == 1 ? 2.0f * unit : unit;
}

__device__ float function(int f, float x) {
  switch (f) {
    case 0: return erfinvf(x);
    case 1: return erfcinvf(x);
    default: return normcdfinvf(x);
  }
}

__global__ void many(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  out[i] = __float_as_uint(function(f, input(c, f, i)));
}

// Each block sums the normal quantiles of its threads' stratum midpoints.
__global__ void quantiles(float* sums) {
  __shared__ float part[256];
  part[threadIdx.x] = normcdfinvf((blockIdx.x * 256 + threadIdx.x + 0.5f) / (256.0f * gridDim.x));
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < 256; ++k) s += part[k] * part[k];
    sums[blockIdx.x] = s;
  }
}

const int kSpecials = 24;
__constant__ float specials_x[kSpecials] = {
    0.0f,   -0.0f,  1.0f,        -1.0f,       0.5f,        -0.5f,    2.0f,     1.5f,
    0.25f,  0.999f, 0.99999994f, 1e-30f,      1e-45f,      0.0034f,  0.0033f,  1.9966f,
    1.9967f, 0.975f, 0.9999f,    1.00000012f, -1.00000012f, 3.0f,    __builtin_huge_valf(), __builtin_nanf("")};

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
    printf("special %2d: erfinvf erfcinvf normcdfinvf:", k);
    for (int f = 0; f < kFunctions; ++f) printf(" %08x", special[k * kFunctions + f]);
    printf("\n");
  }
  static unsigned host[kN];
  const char* names[] = {"erfinvf", "erfcinvf", "normcdfinvf"};
  const char* classes[] = {"random bits", "its domain", "near its ends"};
  for (int f = 0; f < kFunctions; ++f)
    for (int c = 0; c < 3; ++c) {
      many<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", names[f], classes[c], fnv(host, sizeof host));
    }
  const int kBlocks = 1024;
  float* d_sums;
  cudaMalloc(&d_sums, kBlocks * 4);
  quantiles<<<kBlocks, 256>>>(d_sums);
  static float sums[kBlocks];
  cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
  double total = 0;
  for (int b = 0; b < kBlocks; ++b) total += sums[b];
  printf("squared normal quantiles: first %.9g, mean %.9g, hash %016llx\n", sums[0], total / (kBlocks * 256.0),
         fnv(sums, sizeof sums));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
