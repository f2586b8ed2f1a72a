// CUDA's sinf, cosf and sincosf in device code: special values (zeros,
// multiples of pi/2, the edge of the fast reduction at 105615, huge values,
// infinities, NaN) printed, then 2^22 inputs of each (random bit patterns,
// [-1000, 1000], and [-2^20, 2^20]) hashed. The emulator computes them step
// for step as nvcc compiles them (src/emulate/shim/cuda_emu_math.h), the
// Payne-Hanek reduction of large arguments included.
#include <cuda_runtime.h>

#include <cstdio>

typedef unsigned long long u64;
const int kN = 1 << 22;

__device__ u64 mix(u64 i) {
  u64 z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__device__ float input(int c, u64 i) {
  u64 r = mix(i);
  if (c == 0) return __uint_as_float((unsigned)r);
  float unit = (float)(r >> 40) * 0x1p-24f - 0.5f;
  return c == 1 ? unit * 2000.0f : unit * 2097152.0f;
}

// f: 0 sinf, 1 cosf, 2 sincosf (the sine and the cosine mixed into one word)
__global__ void many(unsigned* out, int c, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float x = input(c, i);
  if (f == 0) {
    out[i] = __float_as_uint(sinf(x));
  } else if (f == 1) {
    out[i] = __float_as_uint(cosf(x));
  } else {
    float s, k;
    sincosf(x, &s, &k);
    out[i] = __float_as_uint(s) ^ (__float_as_uint(k) * 2654435761u);
  }
}

__global__ void specials(unsigned* out) {
  const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.57079637f, 3.14159274f, 4.71238899f, 6.28318548f,
                      105614.99f, 105615.0f, 105616.0f, -105616.0f, 1e10f, 3.4e38f, -3.4e38f, 1e-45f,
                      __int_as_float(0x7f800000), __int_as_float(0xff800000), __int_as_float(0x7fc00000),
                      8388608.0f};
  for (int k = 0; k < 20; ++k) {
    float s, c;
    sincosf(xs[k], &s, &c);
    out[4 * k] = __float_as_uint(sinf(xs[k]));
    out[4 * k + 1] = __float_as_uint(cosf(xs[k]));
    out[4 * k + 2] = __float_as_uint(s);
    out[4 * k + 3] = __float_as_uint(c);
  }
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
  specials<<<1, 1>>>(d_out);
  unsigned special[80];
  cudaMemcpy(special, d_out, sizeof special, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 20; ++k)
    printf("special %2d: sinf cosf sincosf: %08x %08x %08x %08x\n", k, special[4 * k], special[4 * k + 1],
           special[4 * k + 2], special[4 * k + 3]);
  static unsigned host[kN];
  const char* names[] = {"sinf", "cosf", "sincosf"};
  const char* classes[] = {"random bits", "[-1000, 1000]", "[-2^20, 2^20]"};
  for (int f = 0; f < 3; ++f)
    for (int c = 0; c < 3; ++c) {
      many<<<kN / 256, 256>>>(d_out, c, f);
      cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
      printf("%s over %s: hash %016llx\n", names[f], classes[c], fnv(host, sizeof host));
    }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
