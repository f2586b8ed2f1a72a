// CUDA's log2f, log10f, log1pf, sinpif and cospif in device code: special
// values printed, then 2^22 inputs of each (random bit patterns, values in
// (0, 1], and [-1000, 1000]) hashed. The emulator computes them step for step
// as nvcc compiles them (src/emulate/shim/cuda_emu_math.h).
#include <cuda_runtime.h>

#include <cstdio>

typedef unsigned long long u64;
const int kN = 1 << 22;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__device__ float input(int c, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __uint_as_float((unsigned)r);
  if (c == 1) return (float)((r >> 40) + 1) * 0x1p-24f;
  return ((float)(r >> 40) * 0x1p-24f - 0.5f) * 2000.0f;
}

__device__ float apply(int f, float x) {
  switch (f) {
    case 0: return log2f(x);
    case 1: return log10f(x);
    case 2: return log1pf(x);
    case 3: return sinpif(x);
    default: return cospif(x);
  }
}

__global__ void many(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = __float_as_uint(apply(f, input(c, i)));
}

__global__ void specials(unsigned* out) {
  const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 1e-45f, 1.17549435e-38f, 3.4e38f,
                      -3.4e38f, __int_as_float(0x7f800000), __int_as_float(0xff800000),
                      __int_as_float(0x7fc00000), 0.25f, 16777216.0f, -0.99999994f, 1e-8f};
  for (int f = 0; f < 5; ++f)
    for (int k = 0; k < 18; ++k) out[f * 18 + k] = __float_as_uint(apply(f, xs[k]));
}

static u64 fnv(const void* p, size_t bytes) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  u64 h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

int main() {
  const char* names[] = {"log2f", "log10f", "log1pf", "sinpif", "cospif"};
  unsigned* d_out;
  cudaMalloc(&d_out, kN * 4);
  specials<<<1, 1>>>(d_out);
  unsigned special[5 * 18];
  cudaMemcpy(special, d_out, sizeof special, cudaMemcpyDeviceToHost);
  for (int f = 0; f < 5; ++f) {
    printf("%s specials:", names[f]);
    for (int k = 0; k < 18; ++k) printf(" %08x", special[f * 18 + k]);
    printf("\n");
  }
  static unsigned host[kN];
  const char* classes[] = {"random bits", "(0, 1]", "[-1000, 1000]"};
  for (int f = 0; f < 5; ++f)
    for (int c = 0; c < 3; ++c) {
      many<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", names[f], classes[c], fnv(host, sizeof host));
    }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
