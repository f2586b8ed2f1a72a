// cuRAND's MRG32k3a generator (curandStateMRG32k3a_t), from
// <curand_kernel.h>: the state after curand_init for several seeds,
// subsequences and offsets, the first values of curand(), skipahead and
// skipahead_subsequence, curand_uniform and curand_uniform_double (hex), a
// block of 256 threads each with its own subsequence, and hashes of long
// runs.
#define STATE curandStateMRG32k3a_t
#define SKIP_SUBSEQUENCE skipahead_subsequence
#define EXTRA_UNIFORMS
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cstdio>
#include <cstring>

typedef unsigned long long u64;

struct Config {
  u64 seed, subsequence, offset;
};
static const Config configs[] = {
    {0, 0, 0},        {1, 0, 0},        {1234, 0, 0},     {0xdeadbeefcafef00dull, 0, 0},
    {1ull << 32, 0, 0}, {1234, 1, 0},   {1234, 2, 0},     {1234, 3, 0},
    {1234, 1000, 0},  {1234, 123456789, 0}, {1234, 0, 1}, {1234, 0, 7},
    {1234, 0, 1000},  {1234, 0, 123456789012ull}, {1234, 5, 77}, {42, 0xffffffffffull, 3},
};
constexpr int NC = sizeof configs / sizeof *configs;
constexpr int WORDS = (sizeof(STATE) + 3) / 4;
constexpr int DRAWS = 8;
constexpr int ROW = WORDS + DRAWS;

// Each thread: one configuration; the state right after curand_init, then
// the first DRAWS values of curand().
__global__ void first_values(const Config* c, unsigned* o) {
  int t = threadIdx.x;
  STATE s;
  memset(&s, 0xab, sizeof s);  // fields curand_init leaves alone show as abababab
  curand_init(c[t].seed, c[t].subsequence, c[t].offset, &s);
  memcpy(o + t * ROW, &s, sizeof s);
  for (int k = 0; k < DRAWS; ++k) o[t * ROW + WORDS + k] = curand(&s);
}

// skipahead and skipahead_sequence on a state, against curand_init with the
// same subsequence and offset.
__global__ void skips(unsigned* o) {
  STATE a, b;
  curand_init(7, 0, 0, &a);
  for (int k = 0; k < 3; ++k) o[k] = curand(&a);
  skipahead(5ull, &a);
  SKIP_SUBSEQUENCE(2ull, &a);
  curand_init(7, 2, 8, &b);
  for (int k = 0; k < 4; ++k) {
    o[3 + k] = curand(&a);
    o[7 + k] = curand(&b);
  }
  skipahead(1ull << 40, &a);
  o[11] = curand(&a);
  SKIP_SUBSEQUENCE(1ull << 20, &a);
  o[12] = curand(&a);
}

// Uniform floats and doubles, interleaved with raw draws.
__global__ void uniforms(u64* o) {
  STATE s;
  curand_init(42, 0, 0, &s);
  int k = 0;
  for (int i = 0; i < 6; ++i) {
    float f = curand_uniform(&s);
    unsigned u;
    memcpy(&u, &f, 4);
    o[k++] = u;
  }
  for (int i = 0; i < 3; ++i) {
    double d = curand_uniform_double(&s);
    memcpy(&o[k++], &d, 8);
  }
  o[k++] = curand(&s);
  float f = curand_uniform(&s);
  unsigned u;
  memcpy(&u, &f, 4);
  o[k++] = u;
  EXTRA_UNIFORMS
}

// A block initialising one state per thread as most programs do:
// curand_init(seed, thread, 0), then four uniforms each.
__global__ void per_thread(float* o) {
  STATE s;
  curand_init(2024, threadIdx.x, 0, &s);
  for (int k = 0; k < 4; ++k) o[threadIdx.x * 4 + k] = curand_uniform(&s);
}

// Long runs from one state: 2^22 raw draws, then 2^20 uniforms and 2^18
// uniform doubles, each hashed.
__global__ void long_run(u64* h) {
  STATE s;
  curand_init(31337, 3, 11, &s);
  u64 x = 1469598103934665603ull;
  for (int i = 0; i < (1 << 22); ++i) x = (x ^ curand(&s)) * 1099511628211ull;
  h[0] = x;
  x = 1469598103934665603ull;
  for (int i = 0; i < (1 << 20); ++i) {
    float f = curand_uniform(&s);
    unsigned u;
    memcpy(&u, &f, 4);
    x = (x ^ u) * 1099511628211ull;
  }
  h[1] = x;
  x = 1469598103934665603ull;
  for (int i = 0; i < (1 << 18); ++i) {
    double d = curand_uniform_double(&s);
    u64 u;
    memcpy(&u, &d, 8);
    x = (x ^ u) * 1099511628211ull;
  }
  h[2] = x;
}

int main() {
  Config* d_c;
  unsigned* d_o;
  cudaMalloc(&d_c, sizeof configs);
  cudaMalloc(&d_o, 4 * NC * ROW);
  cudaMemcpy(d_c, configs, sizeof configs, cudaMemcpyHostToDevice);
  first_values<<<1, NC>>>(d_c, d_o);
  unsigned rows[NC * ROW];
  printf("launch %d\n", (int)cudaGetLastError());
  cudaMemcpy(rows, d_o, sizeof rows, cudaMemcpyDeviceToHost);
  printf("sizeof %zu\n", sizeof(STATE));
  for (int t = 0; t < NC; ++t) {
    printf("seed %llx subsequence %llx offset %llx\n  state", configs[t].seed, configs[t].subsequence,
           configs[t].offset);
    for (int w = 0; w < WORDS; ++w) printf(" %08x", rows[t * ROW + w]);
    printf("\n  curand");
    for (int k = 0; k < DRAWS; ++k) printf(" %08x", rows[t * ROW + WORDS + k]);
    printf("\n");
  }
  skips<<<1, 1>>>(d_o);
  unsigned sk[13];
  cudaMemcpy(sk, d_o, sizeof sk, cudaMemcpyDeviceToHost);
  printf("skips");
  for (unsigned v : sk) printf(" %08x", v);
  printf("\n");
  u64* d_u;
  cudaMalloc(&d_u, 8 * 64);
  cudaMemset(d_u, 0, 8 * 64);
  uniforms<<<1, 1>>>(d_u);
  u64 un[64];
  cudaMemcpy(un, d_u, sizeof un, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) {
    if (un[i] == 0) continue;
    if (un[i] >> 32) {
      double d;
      memcpy(&d, &un[i], 8);
      printf("uniform %d %a\n", i, d);
    } else {
      unsigned u = static_cast<unsigned>(un[i]);
      float f;
      memcpy(&f, &u, 4);
      printf("uniform %d %08x %a\n", i, u, f);
    }
  }
  float* d_f;
  cudaMalloc(&d_f, 4 * 4 * 256);
  per_thread<<<1, 256>>>(d_f);
  float pf[4 * 256];
  cudaMemcpy(pf, d_f, sizeof pf, cudaMemcpyDeviceToHost);
  unsigned long long h = 1469598103934665603ull;
  for (float f : pf) {
    unsigned u;
    memcpy(&u, &f, 4);
    h = (h ^ u) * 1099511628211ull;
  }
  printf("per-thread hash %016llx first %a %a %a last %a\n", h, pf[0], pf[1], pf[4], pf[1023]);
  long_run<<<1, 1>>>(d_u);
  u64 lr[3];
  cudaMemcpy(lr, d_u, sizeof lr, cudaMemcpyDeviceToHost);
  printf("long run hashes %016llx %016llx %016llx\n", lr[0], lr[1], lr[2]);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
