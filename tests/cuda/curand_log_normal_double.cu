// cuRAND's double log-normal distribution (<curand_kernel.h>) for XORWOW,
// Philox4_32_10 and MRG32k3a: curand_log_normal_double (an odd number of
// calls, so the cached second value shows, then a normal, which shares the
// cache's flag), curand_log_normal2_double and curand_log_normal4_double
// (Philox), printed in hex; then 131072 values of each generator, hashed.
// Seed, mean and deviation come from the host, so nvcc cannot evaluate a
// draw at compile time (tests/cuda/curand_normal_float.cu).
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

template <class S>
__device__ int mixed(S* s, u64* o, double mean, double stddev) {
  int k = 0;
  for (int i = 0; i < 3; ++i) o[k++] = bits(curand_log_normal_double(s, mean, stddev));
  o[k++] = bits(curand_normal_double(s));
  o[k++] = bits(curand_log_normal_double(s, -mean, 2.0 * stddev));
  double2 pair = curand_log_normal2_double(s, mean, stddev);
  o[k++] = bits(pair.x);
  o[k++] = bits(pair.y);
  o[k++] = curand(s);
  return k;
}

__global__ void sequences(u64* o, unsigned long long seed, double mean, double stddev) {
  curandState x;
  curand_init(seed, 0, 0, &x);
  mixed(&x, o, mean, stddev);
  curandStatePhilox4_32_10_t p;
  curand_init(seed, 0, 0, &p);
  int k = mixed(&p, o + 16, mean, stddev);
  double4 four = curand_log_normal4_double(&p, mean, stddev);
  o[16 + k++] = bits(four.x);
  o[16 + k++] = bits(four.y);
  o[16 + k++] = bits(four.z);
  o[16 + k++] = bits(four.w);
  curandStateMRG32k3a_t m;
  curand_init(seed, 0, 0, &m);
  mixed(&m, o + 32, mean, stddev);
}

const int kThreads = 256;
const int kPerThread = 512;

template <class S>
__global__ void many(double* out_all, unsigned long long seed, double mean, double stddev) {
  S s;
  curand_init(seed, threadIdx.x, 0, &s);
  double* out = out_all + threadIdx.x * kPerThread;
  for (int i = 0; i < kPerThread; i += 4) {
    out[i] = curand_log_normal_double(&s, mean, stddev);
    out[i + 1] = curand_log_normal_double(&s, mean, stddev);
    double2 a = curand_log_normal2_double(&s, mean, stddev);
    out[i + 2] = a.x, out[i + 3] = a.y;
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
  const unsigned long long seed = 2468;
  const double mean = 0.25, stddev = 1.5;
  u64* d_o;
  cudaMalloc(&d_o, 8 * 48);
  cudaMemset(d_o, 0, 8 * 48);
  sequences<<<1, 1>>>(d_o, seed, mean, stddev);
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
  many<curandState><<<1, kThreads>>>(d_out, seed, mean, stddev);
  report("xorwow log-normal", d_out);
  many<curandStatePhilox4_32_10_t><<<1, kThreads>>>(d_out, seed, mean, stddev);
  report("philox log-normal", d_out);
  many<curandStateMRG32k3a_t><<<1, kThreads>>>(d_out, seed, -mean, stddev);
  report("mrg32k3a log-normal", d_out);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
