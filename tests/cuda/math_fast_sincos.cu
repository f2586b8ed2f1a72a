// The hardware sine and cosine (__sinf, __cosf, __sincosf) of floats of
// every size and sign: the special cases printed, then 2^22 floats with
// random bits (every exponent), hashed.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

typedef unsigned long long u64;

__global__ void sweep(unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned h = static_cast<unsigned>(i) * 2654435761u + 12345u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  const float x = __uint_as_float(h);
  float s, c;
  __sincosf(x, &s, &c);
  out[4 * i] = __float_as_uint(__sinf(x));
  out[4 * i + 1] = __float_as_uint(__cosf(x));
  out[4 * i + 2] = __float_as_uint(s);
  out[4 * i + 3] = __float_as_uint(c);
}

__global__ void specials(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[2 * i] = __sinf(in[i]);
    out[2 * i + 1] = __cosf(in[i]);
  }
}

int main() {
  const float in[] = {0.0f, -0.0f, 1e-45f, 1e-30f, 1.0f, -1.0f, 0.5f, 3.14159265f, 6.28318531f, -6.28318531f,
                      100.0f, 26353588.0f, 26353590.0f, 1e8f, -1e10f, 3e38f, INFINITY, -INFINITY, NAN};
  const int n = sizeof in / sizeof in[0];
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, 2 * sizeof in);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  specials<<<1, 1>>>(d_in, d_out, n);
  float out[2 * n];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("x %a: __sinf %a __cosf %a\n", in[i], out[2 * i], out[2 * i + 1]);
  const int m = 1 << 22;
  unsigned* d;
  cudaMalloc(&d, 16ull * m);
  sweep<<<m / 256, 256>>>(d, m);
  static unsigned h_out[4 << 22];
  cudaMemcpy(h_out, d, 16ull * m, cudaMemcpyDeviceToHost);
  u64 hash = 1469598103934665603ull;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(h_out);
  for (size_t i = 0; i < 16ull * m; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  printf("2^22 random floats: hash %016llx, first %08x %08x\n", hash, h_out[0], h_out[1]);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
