// CUDA's __logf, __log2f, __log10f, __powf, cbrtf and rcbrtf in device code,
// and the float overload cbrt: special values printed, then 2^19 inputs of
// each (random bit patterns, [0, 100], and [1/2, 2]) hashed, and a
// geometric mean (__expf of the mean __logf) per block summed. The emulator
// computes them step for step as nvcc compiles them
// (src/emulate/shim/cuda_emu_math.h), on the hardware's log2 (MUFU.LG2) read
// from the tables measured by tests/cuda/fitting/mufu_lg2.cu, and 2^x.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

typedef unsigned long long u64;
const int kN = 1 << 19;
const int kFunctions = 7;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// c: 0 random bits, 1 [0, 100], 2 [1/2, 2].
__device__ float input(int c, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __uint_as_float((unsigned)r);
  float unit = (float)(r >> 40) * 0x1p-24f;
  return c == 1 ? unit * 100.0f : 0.5f + unit * 1.5f;
}

// __powf's exponent: random in [-8, 8] (for the random bits, also random bits).
__device__ float exponent(int c, u64 i) {
  u64 r = mix(i + 0x5bd1e995ull);
  if (c == 0 && (r & 1)) return __uint_as_float((unsigned)(r >> 32));
  return (float)(r >> 40) * 0x1p-20f - 8.0f;
}

__device__ float function(int f, float x, float y) {
  switch (f) {
    case 0: return __logf(x);
    case 1: return __log2f(x);
    case 2: return __log10f(x);
    case 3: return __powf(x, y);
    case 4: return cbrtf(x);
    case 5: return rcbrtf(x);
    default: return cbrt(x);  // the float overload
  }
}

__global__ void many(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  out[i] = __float_as_uint(function(f, input(c, i), exponent(c, i)));
}

// Each block's geometric mean of its threads' inputs in [1/2, 2], through
// __logf and __expf, the log summed in a fixed order.
__global__ void geometric(float* means) {
  __shared__ float part[256];
  part[threadIdx.x] = __logf(input(2, blockIdx.x * 256 + threadIdx.x));
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < 256; ++k) s += part[k];
    means[blockIdx.x] = __expf(s / 256.0f);
  }
}

const int kSpecials = 32;
__constant__ float specials_x[kSpecials] = {
    0.0f,          -0.0f,         1.0f,          -1.0f,         0.5f,        0.25f,       0.125f,      2.0f,
    1e-45f,        -1e-45f,       1.1754942e-38f, 1.17549435e-38f, 3e-39f,  -3e-39f,     1e-8f,       8.0f,
    27.0f,         -27.0f,        1000.0f,       0.001f,        3.4e38f,     -3.4e38f,    2.71828183f, 10.0f,
    0.999999940f,  1.00000012f,   0.7071067f,    1.41421354f,   __builtin_huge_valf(), -__builtin_huge_valf(),
    __builtin_nanf(""), 100.0f};
__constant__ float specials_y[4] = {0.5f, -1.0f, 3.0f, -0.333333343f};

__global__ void specials(unsigned* out) {
  for (int k = 0; k < kSpecials; ++k)
    for (int f = 0; f < kFunctions; ++f)
      out[k * kFunctions + f] = __float_as_uint(function(f, specials_x[k], specials_y[k % 4]));
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
    printf("special %2d: __logf __log2f __log10f __powf cbrtf rcbrtf cbrt:", k);
    for (int f = 0; f < kFunctions; ++f) printf(" %08x", special[k * kFunctions + f]);
    printf("\n");
  }
  static unsigned host[kN];
  const char* names[] = {"__logf", "__log2f", "__log10f", "__powf", "cbrtf", "rcbrtf", "cbrt (float)"};
  const char* classes[] = {"random bits", "[0, 100]", "[1/2, 2]"};
  for (int f = 0; f < kFunctions; ++f)
    for (int c = 0; c < 3; ++c) {
      many<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", names[f], classes[c], fnv(host, sizeof host));
    }
  const int kBlocks = 2048;
  float* d_means;
  cudaMalloc(&d_means, kBlocks * 4);
  geometric<<<kBlocks, 256>>>(d_means);
  static float means[kBlocks];
  cudaMemcpy(means, d_means, sizeof means, cudaMemcpyDeviceToHost);
  double total = 0;
  for (int b = 0; b < kBlocks; ++b) total += means[b];
  printf("geometric means: first %.9g, mean %.9g, hash %016llx\n", means[0], total / kBlocks, fnv(means, sizeof means));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
