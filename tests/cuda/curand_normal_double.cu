// cuRAND's double normal distribution (<curand_kernel.h>) for XORWOW,
// Philox4_32_10 and MRG32k3a, and MRG32k3a's float normal: each generator's
// forms interleaved with raw draws, printed in hex (curand_normal_double an
// odd number of times, so the cached second value of a Box-Muller pair
// shows); then 131072 values of each generator and form, hashed, with the
// first ones printed. The seed comes from the host, so that nvcc cannot
// evaluate a draw at compile time (tests/cuda/curand_normal_float.cu).
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cstdio>
#include <cstring>

typedef unsigned long long u64;

__device__ u64 bits(double d) {
  u64 u;
  memcpy(&u, &d, 8);
  return u;
}
__device__ u64 bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

template <class S>
__device__ int mixed_double(S* s, u64* o) {
  int k = 0;
  for (int i = 0; i < 3; ++i) o[k++] = bits(curand_normal_double(s));
  o[k++] = curand(s);
  double2 pair = curand_normal2_double(s);
  o[k++] = bits(pair.x);
  o[k++] = bits(pair.y);
  o[k++] = bits(curand_normal_double(s));
  o[k++] = curand(s);
  return k;
}

__global__ void sequences(u64* o, unsigned long long seed) {
  curandState x;
  curand_init(seed, 0, 0, &x);
  mixed_double(&x, o);
  curandStatePhilox4_32_10_t p;
  curand_init(seed, 0, 0, &p);
  int k = mixed_double(&p, o + 16);
  double4 four = curand_normal4_double(&p);
  o[16 + k++] = bits(four.x);
  o[16 + k++] = bits(four.y);
  o[16 + k++] = bits(four.z);
  o[16 + k++] = bits(four.w);
  curandStateMRG32k3a_t m;
  curand_init(seed, 0, 0, &m);
  k = mixed_double(&m, o + 32);
  for (int i = 0; i < 3; ++i) o[32 + k++] = bits(curand_normal(&m));
  float2 f = curand_normal2(&m);
  o[32 + k++] = bits(f.x);
  o[32 + k++] = bits(f.y);
}

const int kThreads = 256;
const int kPerThread = 512;

// form 0: curand_normal_double; 1: curand_normal2_double; 2: curand_normal4_double
// (Philox only); 3: curand_normal (float); 4: curand_normal2 (float).
template <class S>
__global__ void many(double* out_all, int form, unsigned long long seed) {
  S s;
  curand_init(seed + form, threadIdx.x, 0, &s);
  double* out = out_all + threadIdx.x * kPerThread;
  for (int i = 0; i < kPerThread; i += 4) {
    if (form == 0) {
      for (int j = 0; j < 4; ++j) out[i + j] = curand_normal_double(&s);
    } else if (form == 1) {
      double2 a = curand_normal2_double(&s), b = curand_normal2_double(&s);
      out[i] = a.x, out[i + 1] = a.y, out[i + 2] = b.x, out[i + 3] = b.y;
    } else if (form == 3) {
      for (int j = 0; j < 4; ++j) out[i + j] = curand_normal(&s);
    } else if (form == 4) {
      float2 a = curand_normal2(&s), b = curand_normal2(&s);
      out[i] = a.x, out[i + 1] = a.y, out[i + 2] = b.x, out[i + 3] = b.y;
    }
  }
}

__global__ void many4(double* out_all, unsigned long long seed) {
  curandStatePhilox4_32_10_t s;
  curand_init(seed, threadIdx.x, 0, &s);
  double* out = out_all + threadIdx.x * kPerThread;
  for (int i = 0; i < kPerThread; i += 4) {
    double4 q = curand_normal4_double(&s);
    out[i] = q.x, out[i + 1] = q.y, out[i + 2] = q.z, out[i + 3] = q.w;
  }
}

static u64 fnv(const void* p, size_t bytes) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  u64 h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

static double host[kThreads * kPerThread];

static void report(const char* what, double* d_out) {
  cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
  printf("%s: hash %016llx first %a %a %a last %a\n", what, fnv(host, sizeof host), host[0], host[1],
         host[kPerThread], host[kThreads * kPerThread - 1]);
}

int main() {
  const unsigned long long seed = 4321;
  u64* d_o;
  cudaMalloc(&d_o, 8 * 48);
  cudaMemset(d_o, 0, 8 * 48);
  sequences<<<1, 1>>>(d_o, seed);
  u64 o[48];
  cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
  const char* gens[] = {"xorwow", "philox", "mrg32k3a"};
  for (int g = 0; g < 3; ++g) {
    printf("%s:", gens[g]);
    for (int i = 0; i < 16; ++i)
      if (o[g * 16 + i]) printf(" %llx", o[g * 16 + i]);
    printf("\n");
  }
  double* d_out;
  cudaMalloc(&d_out, sizeof host);
  many<curandState><<<1, kThreads>>>(d_out, 0, seed);
  report("xorwow curand_normal_double", d_out);
  many<curandState><<<1, kThreads>>>(d_out, 1, seed);
  report("xorwow curand_normal2_double", d_out);
  many<curandStatePhilox4_32_10_t><<<1, kThreads>>>(d_out, 0, seed);
  report("philox curand_normal_double", d_out);
  many<curandStatePhilox4_32_10_t><<<1, kThreads>>>(d_out, 1, seed);
  report("philox curand_normal2_double", d_out);
  many4<<<1, kThreads>>>(d_out, seed);
  report("philox curand_normal4_double", d_out);
  many<curandStateMRG32k3a_t><<<1, kThreads>>>(d_out, 0, seed);
  report("mrg32k3a curand_normal_double", d_out);
  many<curandStateMRG32k3a_t><<<1, kThreads>>>(d_out, 1, seed);
  report("mrg32k3a curand_normal2_double", d_out);
  many<curandStateMRG32k3a_t><<<1, kThreads>>>(d_out, 3, seed);
  report("mrg32k3a curand_normal", d_out);
  many<curandStateMRG32k3a_t><<<1, kThreads>>>(d_out, 4, seed);
  report("mrg32k3a curand_normal2", d_out);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
