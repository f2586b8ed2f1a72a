// CUDA's logf, log, sincospi, sinpi and cospi in device code: special
// values printed, then 2^22 inputs of each (random bit patterns, values in
// (0, 1] as cuRAND draws them, and typical ranges) hashed. The emulator
// computes these functions step for step as nvcc compiles them
// (src/emulate/shim/cuda_emu_math.h), so every bit must match the H200's.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

typedef unsigned long long u64;
const int kN = 1 << 22;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Input i of class c: 0 random bits, 1 a value in (0, 1] (a 53-bit or a
// 32-bit fraction), 2 in [-1000, 1000].
__device__ double input_double(int c, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __longlong_as_double((long long)r);
  if (c == 1) return (i & 1) ? ((r >> 11) + 1) * 0x1p-53 : (double)((r >> 32) + 1) * 0x1p-32;
  return ((double)(r >> 11) * 0x1p-53 - 0.5) * 2000.0;
}

__global__ void floats(unsigned* out, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float x = c == 0 ? __uint_as_float((unsigned)mix(i)) : (float)input_double(c, i);
  out[i] = __float_as_uint(logf(x));
}

__global__ void doubles(u64* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  double x = input_double(c, i), s, k;
  if (f == 0) {
    s = log(x);
  } else if (f == 1) {
    sincospi(x, &s, &k);
    s = s + 3.0 * k;  // both, folded into one value
  } else if (f == 2) {
    s = sinpi(x);
  } else {
    s = cospi(x);
  }
  out[i] = (u64)__double_as_longlong(s);
}

__global__ void specials(u64* out) {
  const float fs[] = {0.0f, -0.0f, 1.0f, 2.0f, 0.5f, 1e-45f, 1.17549435e-38f, 3.4e38f, -1.0f,
                      __int_as_float(0x7f800000), __int_as_float(0x7fc00000), 0.999999940f};
  const double ds[] = {0.0, -0.0, 1.0, 0.5, 0.25, 1.5, 2.0, 4.9e-324, 2.2250738585072014e-308,
                       1.7976931348623157e308, -1.0, 9007199254740992.0, 0.1, 1e-300,
                       __longlong_as_double(0x7ff0000000000000ll), -3.75};
  int k = 0;
  for (float f : fs) out[k++] = __float_as_uint(logf(f));
  for (double d : ds) {
    double s, c;
    sincospi(d, &s, &c);
    out[k++] = (u64)__double_as_longlong(log(d));
    out[k++] = (u64)__double_as_longlong(s);
    out[k++] = (u64)__double_as_longlong(c);
    out[k++] = (u64)__double_as_longlong(sinpi(d));
    out[k++] = (u64)__double_as_longlong(cospi(d));
  }
}

static u64 fnv(const void* p, size_t bytes) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  u64 h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

int main() {
  u64* d_special;
  cudaMalloc(&d_special, 8 * 128);
  specials<<<1, 1>>>(d_special);
  u64 special[12 + 16 * 5];
  cudaMemcpy(special, d_special, sizeof special, cudaMemcpyDeviceToHost);
  printf("logf specials:");
  for (int i = 0; i < 12; ++i) printf(" %08llx", special[i]);
  printf("\n");
  for (int d = 0; d < 16; ++d) {
    printf("double special %2d: log sincospi sinpi cospi:", d);
    for (int j = 0; j < 5; ++j) printf(" %016llx", special[12 + d * 5 + j]);
    printf("\n");
  }
  static u64 host[kN];
  u64* d_out;
  cudaMalloc(&d_out, sizeof host);
  const char* classes[] = {"random bits", "(0, 1]", "[-1000, 1000]"};
  for (int c = 0; c < 3; ++c) {
    floats<<<kN / 256, 256>>>((unsigned*)d_out, c);
    cudaMemcpy(host, d_out, kN * 4ull, cudaMemcpyDeviceToHost);
    printf("logf over %s: hash %016llx\n", classes[c], fnv(host, kN * 4ull));
  }
  const char* functions[] = {"log", "sincospi", "sinpi", "cospi"};
  for (int f = 0; f < 4; ++f)
    for (int c = 0; c < 3; ++c) {
      doubles<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", functions[f], classes[c], fnv(host, sizeof host));
    }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
