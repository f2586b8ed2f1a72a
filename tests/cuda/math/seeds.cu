// seeds.cu: the hardware's double reciprocal seed (rcp.approx.ftz.f64, SASS
// MUFU.RCP64H) that CUDA's double log starts from, measured on the GPU for the
// high words log's reduction gives, for sweep.cu's model of log
// (src/emulate/shim/cuda_emu_math.h: cuda_log calls reciprocal_high); and the
// tables of the float reciprocal and reciprocal square root over one period
// (rcp.approx.ftz.f32 on [1, 2), rsqrt.approx.ftz.f32 on [1, 4)), which
// cuda_emu_math.h's hardware_rcp and hardware_rsqrt scale for CUDA's tanf,
// atanf, powf, asinf, acosf and rsqrtf (their hashes are printed, to compare
// with those of the tables the emulator ships,
// tests/cuda/fitting/mufu_rcp_rsq.txt); and the hardware 2^x
// (ex2.approx.ftz.f32) of every float of magnitude below one, which
// cuda_emu_math.h's hardware_ex2 scales for CUDA's expf, exp2f and exp10f
// (the emulator keeps each sign's table as its breakpoints: their hashes are
// printed, to compare with the tables it ships, tests/cuda/fitting/mufu_ex2.txt
// and mufu_ex2_check.py); and the hardware log2 (lg2.approx.ftz.f32) of the
// exponents 0, -1 and -2, whose three tables cuda_emu_math.h's hardware_lg2
// reads for CUDA's __logf, __log2f, __log10f, __powf, cbrtf and rcbrtf (their
// hashes are printed, to compare with tests/cuda/fitting/mufu_lg2.txt). Linked
// into the sweep on the GPU machine only: its inline PTX is nothing the emulator
// runs, so the sweep's --host-hash mode builds without it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace cuda_emu {
namespace math {
uint32_t reciprocal_high(uint32_t high);
uint32_t mufu_rcp_entry(uint32_t fraction);
uint32_t mufu_rsq_entry(uint32_t index);
uint32_t mufu_ex2_below_one(uint32_t bits);
uint32_t mufu_lg2_entry(int table, uint32_t mantissa);
}
}  // namespace cuda_emu

static const uint32_t kSeedFirst = 0x3ffb0000u, kSeedEnd = 0x40040000u;
static std::vector<uint32_t> seed_table;

__global__ void k_seeds(uint32_t* out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double r, d = __hiloint2double((int)(kSeedFirst + i), 0);
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(d));
  out[i] = (uint32_t)__double2hiint(r);
}

static std::vector<uint32_t> rcp_table, rsq_table;

__global__ void k_mufu_tables(uint32_t* rcp, uint32_t* rsq, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r, x = __uint_as_float(0x3f800000u + i);
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  rsq[i] = __float_as_uint(r);
  if (i < (1u << 23)) {
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    rcp[i] = __float_as_uint(r);
  }
}

static uint64_t fnv1a(const std::vector<uint32_t>& v) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t e : v)
    for (int k = 0; k < 4; ++k) h = (h ^ ((e >> (8 * k)) & 255u)) * 1099511628211ull;
  return h;
}

static void measure_mufu_tables() {
  const uint32_t n = 1u << 24;
  uint32_t *d_rcp, *d_rsq;
  rcp_table.resize(1u << 23);
  rsq_table.resize(n);
  if (cudaMalloc(&d_rcp, (1u << 23) * 4) != cudaSuccess || cudaMalloc(&d_rsq, n * 4) != cudaSuccess) exit(2);
  k_mufu_tables<<<n / 256, 256>>>(d_rcp, d_rsq, n);
  if (cudaMemcpy(rcp_table.data(), d_rcp, (1u << 23) * 4, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(rsq_table.data(), d_rsq, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "seeds: %s\n", cudaGetErrorString(cudaGetLastError()));
    exit(2);
  }
  printf("mufu tables: rcp hash %016llx, rsq hash %016llx (the emulator's: f8e542897275aba6, e97cb9514f40c1a6)\n",
         (unsigned long long)fnv1a(rcp_table), (unsigned long long)fnv1a(rsq_table));
}

static const uint32_t kBelowOne = 0x3f800000u;
static std::vector<uint32_t> ex2_table[2];  // by sign: the results for magnitudes 0 .. kBelowOne - 1

__global__ void k_ex2(uint32_t* out, uint32_t sign) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kBelowOne) return;
  float r, x = __uint_as_float(i | sign);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  out[i] = __float_as_uint(r);
}

// The breakpoints the emulator keeps (src/emulate/tables.rs, MUFU_EX2_POS
// and MUFU_EX2_NEG): for result k, the first magnitude giving it, a result
// never given taking the next one's (the last, 0x7fffffff).
static uint64_t breakpoints_hash(const std::vector<uint32_t>& results, bool negative) {
  const uint32_t n = (1u << 23) + 1, never = 0x7fffffffu;
  std::vector<uint32_t> first(n, never);
  for (uint32_t i = kBelowOne; i-- > 0;) {
    uint32_t k = negative ? 0x3f800000u - results[i] : results[i] - 0x3f800000u;
    if (k >= n) {
      fprintf(stderr, "seeds: 2^x of %08x is %08x, outside its table\n", i, results[i]);
      exit(2);
    }
    first[k] = i;
  }
  for (uint32_t k = n - 1; k-- > 0;)
    if (first[k] == never) first[k] = first[k + 1];
  return fnv1a(first);
}

static void measure_ex2_tables() {
  uint32_t* d;
  if (cudaMalloc(&d, kBelowOne * 4ull) != cudaSuccess) exit(2);
  for (int s = 0; s < 2; ++s) {
    ex2_table[s].resize(kBelowOne);
    k_ex2<<<kBelowOne / 256, 256>>>(d, s ? 0x80000000u : 0u);
    if (cudaMemcpy(ex2_table[s].data(), d, kBelowOne * 4ull, cudaMemcpyDeviceToHost) != cudaSuccess) {
      fprintf(stderr, "seeds: %s\n", cudaGetErrorString(cudaGetLastError()));
      exit(2);
    }
  }
  cudaFree(d);
  printf("mufu tables: ex2 breakpoints hash %016llx and %016llx (the emulator's: f3b72df14ce3483e, 7405e33f96e61bc0)\n",
         (unsigned long long)breakpoints_hash(ex2_table[0], false),
         (unsigned long long)breakpoints_hash(ex2_table[1], true));
}

static std::vector<uint32_t> lg2_table[3];  // exponents 0, -1, -2: inputs 0x3f800000 >> table

__global__ void k_lg2(uint32_t* out, uint32_t first) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << 23)) return;
  float r, x = __uint_as_float(first | i);
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  out[i] = __float_as_uint(r);
}

static void measure_lg2_tables() {
  const uint32_t n = 1u << 23, first[3] = {0x3f800000u, 0x3f000000u, 0x3e800000u};
  uint32_t* d;
  if (cudaMalloc(&d, n * 4ull) != cudaSuccess) exit(2);
  for (int t = 0; t < 3; ++t) {
    lg2_table[t].resize(n);
    k_lg2<<<n / 256, 256>>>(d, first[t]);
    if (cudaMemcpy(lg2_table[t].data(), d, n * 4ull, cudaMemcpyDeviceToHost) != cudaSuccess) {
      fprintf(stderr, "seeds: %s\n", cudaGetErrorString(cudaGetLastError()));
      exit(2);
    }
  }
  cudaFree(d);
  printf("mufu tables: lg2 hashes %016llx, %016llx and %016llx (the emulator's: ed4797a64eced0df, e942a8a3499dac36, "
         "245c8d2256d8761f)\n",
         (unsigned long long)fnv1a(lg2_table[0]), (unsigned long long)fnv1a(lg2_table[1]),
         (unsigned long long)fnv1a(lg2_table[2]));
}

void measure_reciprocal_seeds() {
  measure_mufu_tables();
  measure_ex2_tables();
  measure_lg2_tables();
  const uint32_t n = kSeedEnd - kSeedFirst;
  uint32_t* d_seeds;
  seed_table.resize(n);
  if (cudaMalloc(&d_seeds, n * 4) != cudaSuccess) exit(2);
  k_seeds<<<(n + 255) / 256, 256>>>(d_seeds, n);
  if (cudaMemcpy(seed_table.data(), d_seeds, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "seeds: %s\n", cudaGetErrorString(cudaGetLastError()));
    exit(2);
  }
}

uint32_t cuda_emu::math::reciprocal_high(uint32_t high) {
  if (high < kSeedFirst || high >= kSeedEnd) {
    fprintf(stderr, "sweep: reciprocal seed asked for %08x, outside the table\n", high);
    exit(2);
  }
  return seed_table[high - kSeedFirst];
}

uint32_t cuda_emu::math::mufu_rcp_entry(uint32_t fraction) { return rcp_table.at(fraction); }
uint32_t cuda_emu::math::mufu_rsq_entry(uint32_t index) { return rsq_table.at(index); }
uint32_t cuda_emu::math::mufu_ex2_below_one(uint32_t bits) {
  return ex2_table[bits >> 31].at(bits & 0x7fffffffu);
}
uint32_t cuda_emu::math::mufu_lg2_entry(int table, uint32_t mantissa) { return lg2_table[table].at(mantissa); }
