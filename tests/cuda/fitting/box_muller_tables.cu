// What cuRAND's float Box-Muller (curand_normal for XORWOW and Philox)
// computes on the GPU beyond plain IEEE arithmetic, measured so that the
// CPU emulator can reproduce it: the hardware sine and cosine (__sinf,
// __cosf, __sincosf: MUFU.SIN and MUFU.COS after a product rounded toward
// zero) and CUDA's logf on cuRAND's uniform values.
//
//   box_muller_tables DIR     writes DIR/mufu_sin.u32, DIR/mufu_cos.u32
//                             (2^25 entries: the output for each 25-bit
//                             fraction k of the turn count t, 0xffffffff
//                             where no float reaches k) and
//                             DIR/logf_u.u32 (CUDA's logf for each float u
//                             in [2^-33, 1], indexed by bits(u) - bits(2^-33),
//                             0xffffffff where u is no cuRAND uniform);
//                             prints what it checked on stdout, and the
//                             hashes of the tables the emulator rebuilds;
//                             DIR/mufu_sine.deltas: the table the emulator
//                             ships (see sine_table).
//
// The claims it checks, each counted over every input:
//   - __sinf(x) and __cosf(x) of x >= 0 depend only on
//     k = floor(frac(__fmul_rz(x, 0.159154943f)) * 2^25) (conflicts per
//     range of x);
//   - __sincosf gives the same pair as __sinf and __cosf;
//   - __sinf(-x) == -__sinf(x) and __cosf(-x) == __cosf(x), bit for bit.
// Run by box_muller_on_gpu.sh.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e = (call);                                                          \
    if (e != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

typedef unsigned long long u64;
const uint32_t kUnset = 0xffffffffu;
const uint32_t kFractions = 1u << 25;

__device__ uint32_t fraction_of(float x) {
  const float t = __fmul_rz(x, 0.159154943f);
  const float f = t - floorf(t);
  return static_cast<uint32_t>(f * 33554432.0f) & (kFractions - 1);
}

// Ranges of x: [0, 2pi), [2pi, 1024), [1024, 2^22 * 2pi].
__device__ int range_of(float x) { return x < 6.2831855f ? 0 : (x < 1024.0f ? 1 : 2); }

__global__ void sweep_mufu(uint32_t first, uint32_t count, uint32_t* sin_table, uint32_t* cos_table,
                           u64* conflicts, u64* sincos_differs, u64* odd_differs) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t bits = first + i;
  const float x = __uint_as_float(bits);
  const float s = __sinf(x), c = __cosf(x);
  float s2, c2;
  __sincosf(x, &s2, &c2);
  if (__float_as_uint(s2) != __float_as_uint(s) || __float_as_uint(c2) != __float_as_uint(c))
    atomicAdd(sincos_differs, 1ull);
  if (__float_as_uint(__sinf(-x)) != (__float_as_uint(s) ^ 0x80000000u) ||
      __float_as_uint(__cosf(-x)) != __float_as_uint(c))
    atomicAdd(odd_differs, 1ull);
  const uint32_t k = fraction_of(x);
  const int r = range_of(x);
  const uint32_t old_s = atomicCAS(&sin_table[k], kUnset, __float_as_uint(s));
  const uint32_t old_c = atomicCAS(&cos_table[k], kUnset, __float_as_uint(c));
  if ((old_s != kUnset && old_s != __float_as_uint(s)) || (old_c != kUnset && old_c != __float_as_uint(c)))
    atomicAdd(&conflicts[r], 1ull);
}

// cuRAND's uniform of a 32-bit draw, as its Box-Muller takes it.
__device__ float curand_u(uint32_t x) { return x * 2.3283064e-10f + (2.3283064e-10f / 2.0f); }

__global__ void sweep_logf(u64 first, uint32_t count, uint32_t base, uint32_t* table) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t x = static_cast<uint32_t>(first + i);
  const float u = curand_u(x);
  table[__float_as_uint(u) - base] = __float_as_uint(logf(u));
}

// FNV-1a over the little-endian bytes of v's set entries, in order.
static u64 fnv(const std::vector<uint32_t>& v) {
  u64 h = 1469598103934665603ull;
  for (uint32_t x : v) {
    if (x == kUnset) continue;
    for (int b = 0; b < 4; ++b) h = (h ^ ((x >> (8 * b)) & 0xff)) * 1099511628211ull;
  }
  return h;
}

// A float's bits as an ordered integer (-0 below +0), and back.
static long long ordered(uint32_t u) {
  return (u & 0x80000000u) ? -1 - static_cast<long long>(u & 0x7fffffffu) : static_cast<long long>(u);
}

// The one table both functions read (cos(t) = sin(t + 1/4), checked by
// box_muller_analysis.cpp): entry j is the sine's where some float reaches
// fraction j, else the cosine's at j - 2^23, else 0. Written as the
// differences of consecutive entries' ordered integers, zigzag LEB128.
static std::vector<uint32_t> sine_table(const std::vector<uint32_t>& s, const std::vector<uint32_t>& c) {
  std::vector<uint32_t> table(kFractions);
  for (uint32_t j = 0; j < kFractions; ++j) {
    const uint32_t from_cos = c[(j + kFractions - (kFractions >> 2)) & (kFractions - 1)];
    table[j] = s[j] != kUnset ? s[j] : (from_cos != kUnset ? from_cos : 0u);
  }
  return table;
}

static void write_deltas(const std::string& path, const std::vector<uint32_t>& table) {
  std::vector<unsigned char> bytes;
  long long previous = 0;
  for (uint32_t x : table) {
    const long long d = ordered(x) - previous;
    previous = ordered(x);
    unsigned long long z = d < 0 ? (static_cast<unsigned long long>(-(d + 1)) << 1) | 1 : static_cast<unsigned long long>(d) << 1;
    do {
      bytes.push_back(static_cast<unsigned char>((z & 0x7f) | (z > 0x7f ? 0x80 : 0)));
      z >>= 7;
    } while (z);
  }
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) exit(1);
  fclose(f);
}

static void write(const std::string& path, const std::vector<uint32_t>& v) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(v.data(), 4, v.size(), f) != v.size()) {
    fprintf(stderr, "cannot write %s\n", path.c_str());
    exit(1);
  }
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: box_muller_tables DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  // The sine and cosine.
  uint32_t *d_sin, *d_cos;
  u64* d_counts;
  CHECK(cudaMalloc(&d_sin, 4ull * kFractions));
  CHECK(cudaMalloc(&d_cos, 4ull * kFractions));
  CHECK(cudaMalloc(&d_counts, 8 * 8));
  CHECK(cudaMemset(d_sin, 0xff, 4ull * kFractions));
  CHECK(cudaMemset(d_cos, 0xff, 4ull * kFractions));
  CHECK(cudaMemset(d_counts, 0, 8 * 8));
  float top = 4194304.0f * 6.2831855f;
  uint32_t last;
  memcpy(&last, &top, 4);
  const uint32_t chunk = 1u << 28;
  for (u64 first = 0; first <= last; first += chunk) {
    const uint32_t count = static_cast<uint32_t>(std::min<u64>(chunk, last + 1 - first));
    sweep_mufu<<<(count + 255) / 256, 256>>>(static_cast<uint32_t>(first), count, d_sin, d_cos, d_counts,
                                             d_counts + 3, d_counts + 4);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  u64 counts[8];
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  std::vector<uint32_t> sin_table(kFractions), cos_table(kFractions);
  CHECK(cudaMemcpy(sin_table.data(), d_sin, 4ull * kFractions, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cos_table.data(), d_cos, 4ull * kFractions, cudaMemcpyDeviceToHost));
  size_t reached = 0;
  for (uint32_t v : sin_table) reached += v != kUnset;
  printf("mufu: x in [0, %a], %u floats; fractions reached %zu of %u\n", top, last + 1, reached, kFractions);
  printf("mufu: conflicts [0,2pi) %llu, [2pi,1024) %llu, [1024,2^22*2pi] %llu\n", counts[0], counts[1], counts[2]);
  printf("mufu: __sincosf differs from __sinf/__cosf %llu; odd/even symmetry broken %llu\n", counts[3], counts[4]);
  write(dir + "/mufu_sin.u32", sin_table);
  write(dir + "/mufu_cos.u32", cos_table);
  const std::vector<uint32_t> table = sine_table(sin_table, cos_table);
  printf("mufu: sine table hash %016llx\n", fnv(table));
  write_deltas(dir + "/mufu_sine.deltas", table);

  // CUDA's logf on cuRAND's uniforms.
  const float lo = 2.3283064e-10f / 2.0f;
  uint32_t base, top_u;
  memcpy(&base, &lo, 4);
  const float one = 1.0f;
  memcpy(&top_u, &one, 4);
  const uint32_t n = top_u - base + 1;
  uint32_t* d_log;
  CHECK(cudaMalloc(&d_log, 4ull * n));
  CHECK(cudaMemset(d_log, 0xff, 4ull * n));
  for (u64 first = 0; first < (1ull << 32); first += chunk) {
    sweep_logf<<<chunk / 256, 256>>>(first, chunk, base, d_log);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> logs(n);
  CHECK(cudaMemcpy(logs.data(), d_log, 4ull * n, cudaMemcpyDeviceToHost));
  size_t distinct = 0;
  for (uint32_t v : logs) distinct += v != kUnset;
  printf("logf: u in [%a, 1], %u floats, %zu of them cuRAND uniforms; hash of logf over them %016llx\n", lo, n,
         distinct, fnv(logs));
  write(dir + "/logf_u.u32", logs);
  return 0;
}
