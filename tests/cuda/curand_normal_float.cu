// cuRAND's float normal distribution (<curand_kernel.h>) for the XORWOW and
// Philox4_32_10 generators: curand_normal (an odd number of calls, so the
// cached second value of each Box-Muller pair shows), curand_normal2 and
// curand_normal4 (Philox), interleaved with raw draws, printed in hex; then
// 131072 normals of each generator and form, hashed, with the first ones
// printed.
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cstdio>
#include <cstring>

typedef unsigned long long u64;

__device__ u64 bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

template <class S>
__device__ int mixed(S* s, u64* o) {
  int k = 0;
  for (int i = 0; i < 3; ++i) o[k++] = bits(curand_normal(s));
  o[k++] = curand(s);
  float2 pair = curand_normal2(s);
  o[k++] = bits(pair.x);
  o[k++] = bits(pair.y);
  o[k++] = bits(curand_normal(s));
  o[k++] = curand(s);
  return k;
}

// The seed comes from the host: with a literal one, nvcc evaluates this
// one-thread kernel's XORWOW draws at compile time, with correctly rounded
// logf, sine and cosine, and the GPU prints those (measured: every value of
// the XORWOW line one to four units in the last place from the run-time
// Box-Muller's).
__global__ void sequences(u64* o, unsigned long long seed) {
  curandState x;
  curand_init(seed, 0, 0, &x);
  mixed(&x, o);
  curandStatePhilox4_32_10_t p;
  curand_init(seed, 0, 0, &p);
  int k = mixed(&p, o + 16);
  float4 four = curand_normal4(&p);
  o[16 + k++] = bits(four.x);
  o[16 + k++] = bits(four.y);
  o[16 + k++] = bits(four.z);
  o[16 + k++] = bits(four.w);
}

const int kThreads = 256;
const int kPerThread = 512;

// form 0: curand_normal; 1: curand_normal2; 2: curand_normal4 (Philox only).
template <class S>
__global__ void many(float* f, int form) {
  S s;
  curand_init(7 + form, threadIdx.x, 0, &s);
  float* out = f + threadIdx.x * kPerThread;
  for (int i = 0; i < kPerThread; i += 4) {
    if (form == 0) {
      for (int j = 0; j < 4; ++j) out[i + j] = curand_normal(&s);
    } else if (form == 1) {
      float2 a = curand_normal2(&s), b = curand_normal2(&s);
      out[i] = a.x, out[i + 1] = a.y, out[i + 2] = b.x, out[i + 3] = b.y;
    }
  }
}

__global__ void many4(float* f) {
  curandStatePhilox4_32_10_t s;
  curand_init(9, threadIdx.x, 0, &s);
  float* out = f + threadIdx.x * kPerThread;
  for (int i = 0; i < kPerThread; i += 4) {
    float4 q = curand_normal4(&s);
    out[i] = q.x, out[i + 1] = q.y, out[i + 2] = q.z, out[i + 3] = q.w;
  }
}

static u64 fnv(const void* p, size_t bytes) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  u64 h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

static float host[kThreads * kPerThread];

static void report(const char* what, float* d_f) {
  cudaMemcpy(host, d_f, sizeof host, cudaMemcpyDeviceToHost);
  printf("%s: hash %016llx first %a %a %a last %a\n", what, fnv(host, sizeof host), host[0], host[1],
         host[kPerThread], host[kThreads * kPerThread - 1]);
}

int main() {
  u64* d_o;
  cudaMalloc(&d_o, 8 * 32);
  cudaMemset(d_o, 0, 8 * 32);
  sequences<<<1, 1>>>(d_o, 1234);
  u64 o[32];
  cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
  const char* gens[] = {"xorwow", "philox"};
  for (int g = 0; g < 2; ++g) {
    printf("%s:", gens[g]);
    for (int i = 0; i < 16; ++i)
      if (o[g * 16 + i]) printf(" %llx", o[g * 16 + i]);
    printf("\n");
  }
  float* d_f;
  cudaMalloc(&d_f, sizeof host);
  many<curandState><<<1, kThreads>>>(d_f, 0);
  report("xorwow curand_normal", d_f);
  many<curandState><<<1, kThreads>>>(d_f, 1);
  report("xorwow curand_normal2", d_f);
  many<curandStatePhilox4_32_10_t><<<1, kThreads>>>(d_f, 0);
  report("philox curand_normal", d_f);
  many<curandStatePhilox4_32_10_t><<<1, kThreads>>>(d_f, 1);
  report("philox curand_normal2", d_f);
  many4<<<1, kThreads>>>(d_f);
  report("philox curand_normal4", d_f);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
