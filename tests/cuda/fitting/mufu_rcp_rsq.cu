// mufu_rcp_rsq.cu: measures, on the GPU, the hardware's float reciprocal and
// reciprocal square root (PTX rcp.approx.ftz.f32 and rsqrt.approx.ftz.f32,
// SASS MUFU.RCP and MUFU.RSQ), which CUDA's tanf, atanf, powf, rsqrtf and
// others are built on.
//
// For each it measures a table over one period of the scaling the function
// obeys (the reciprocal: every significand in [1, 2); the reciprocal square
// root: every float in [1, 4)), then checks all 2^32 floats against what the
// table predicts when scaled by a power of two (zeros, infinities, flushed
// subnormals and NaN by the rules printed), printing the mismatches by kind.
// It also prints how the table's entries differ from the correctly rounded
// and the truncated exact value, and the table's FNV-1a hash over its
// little-endian words. With DIR it writes DIR/rcp.deltas and DIR/rsq.deltas:
// the entries' differences from the correctly rounded value, zigzag LEB128.
//
//   nvcc -O2 -arch=sm_90 -o mufu_rcp_rsq tests/cuda/fitting/mufu_rcp_rsq.cu && ./mufu_rcp_rsq [DIR]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

__device__ float mufu(int op, float x) {
  float r;
  if (op == 0)
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// One period: op 0 the 2^23 floats of [1, 2), op 1 the 2^24 of [1, 4).
__global__ void period(int op, uint32_t* table, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) table[i] = __float_as_uint(mufu(op, __uint_as_float(0x3f800000u + i)));
}

// What the table says of x's bits, or 0xffffffff where the rule is not the
// table's (zero, subnormal, infinity, NaN: counted apart).
__device__ uint32_t predict(int op, uint32_t bits, const uint32_t* table) {
  uint32_t sign = bits & 0x80000000u, exponent = (bits >> 23) & 0xff, fraction = bits & 0x7fffff;
  if (exponent == 0 || exponent == 0xff) return 0xffffffffu;
  if (op == 0) {
    int32_t e = (int32_t)exponent - 127;
    int32_t result = (int32_t)((table[fraction] >> 23) & 0xff) - e;
    if (result <= 0) return sign;  // flushed to zero
    if (result >= 0xff) return sign | 0x7f800000u;
    return sign | ((uint32_t)result << 23) | (table[fraction] & 0x7fffff);
  }
  if (sign) return 0xffffffffu;
  int32_t e = (int32_t)exponent - 127;
  int32_t half = e >= 0 ? e / 2 : -((1 - e) / 2);  // floor(e / 2)
  uint32_t index = ((uint32_t)(e - 2 * half) << 23) | fraction;
  int32_t result = (int32_t)((table[index] >> 23) & 0xff) - half;
  return ((uint32_t)result << 23) | (table[index] & 0x7fffff);
}

struct Counts {
  unsigned long long checked, mismatched, special;
  uint32_t first_x, first_gpu, first_predicted;
  unsigned long long zero_pos, zero_neg, sub_inf, inf_zero, nan_canonical, nan_other, neg_nan;
};

__global__ void check(int op, const uint32_t* table, uint32_t high, Counts* c) {
  uint32_t bits = (high << 24) | (blockIdx.x * blockDim.x + threadIdx.x);
  float x = __uint_as_float(bits);
  uint32_t gpu = __float_as_uint(mufu(op, x));
  uint32_t p = predict(op, bits, table);
  uint32_t exponent = (bits >> 23) & 0xff;
  if (p == 0xffffffffu) {
    atomicAdd(&c->special, 1ull);
    bool nan_in = exponent == 0xff && (bits & 0x7fffff);
    if (nan_in || ((gpu & 0x7f800000u) == 0x7f800000u && (gpu & 0x7fffff))) {
      if (gpu == 0x7fffffffu) atomicAdd(&c->nan_canonical, 1ull);
      else atomicAdd(&c->nan_other, 1ull);
      if (!nan_in) atomicAdd(&c->neg_nan, 1ull);  // a NaN made from a number (negative rsqrt)
    } else if (exponent == 0 && (gpu & 0x7fffffffu) == 0x7f800000u) {
      atomicAdd(&c->sub_inf, 1ull);  // zero or flushed subnormal gives infinity of its sign
      if ((gpu ^ bits) & 0x80000000u) atomicAdd(&c->zero_neg, 1ull);  // sign not kept
    } else if (exponent == 0xff && (gpu & 0x7fffffffu) == 0) {
      atomicAdd(&c->inf_zero, 1ull);
      if ((gpu ^ bits) & 0x80000000u) atomicAdd(&c->zero_pos, 1ull);
    } else {
      // any other special: counted as a mismatch of its own
      unsigned long long k = atomicAdd(&c->mismatched, 1ull);
      if (k == 0) { c->first_x = bits; c->first_gpu = gpu; c->first_predicted = 0xffffffffu; }
    }
    return;
  }
  if (gpu != p) {
    unsigned long long k = atomicAdd(&c->mismatched, 1ull);
    if (k == 0) { c->first_x = bits; c->first_gpu = gpu; c->first_predicted = p; }
  }
}

static void leb128(std::vector<unsigned char>& out, uint64_t v) {
  do {
    unsigned char byte = v & 0x7f;
    v >>= 7;
    out.push_back(byte | (v ? 0x80 : 0));
  } while (v);
}

static float as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t as_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int run(int op, const char* dir) {
  const char* name = op == 0 ? "rcp" : "rsq";
  const uint32_t n = op == 0 ? 1u << 23 : 1u << 24;
  uint32_t* d_table;
  Counts* d_counts;
  cudaMalloc(&d_table, n * 4ull);
  cudaMalloc(&d_counts, sizeof(Counts));
  cudaMemset(d_counts, 0, sizeof(Counts));
  period<<<(n + 255) / 256, 256>>>(op, d_table, n);
  for (uint32_t high = 0; high < 256; ++high) check<<<(1u << 24) / 256, 256>>>(op, d_table, high, d_counts);
  std::vector<uint32_t> table(n);
  Counts c;
  cudaMemcpy(table.data(), d_table, n * 4ull, cudaMemcpyDeviceToHost);
  cudaMemcpy(&c, d_counts, sizeof c, cudaMemcpyDeviceToHost);
  c.checked = (1ull << 32) - c.special;
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  // The entries against the exact value, rounded to nearest and truncated.
  long long histogram_rn[9] = {0}, histogram_rz[9] = {0};
  uint64_t hash = 1469598103934665603ull;
  std::vector<unsigned char> deltas;
  for (uint32_t i = 0; i < n; ++i) {
    double x = as_float(0x3f800000u + i);
    double exact = op == 0 ? 1.0 / x : 1.0 / sqrt(x);  // both exact enough in double to round once
    float rn = (float)exact;
    float rz = rn;
    if ((double)rz > exact) rz = nextafterf(rz, 0.0f);
    int64_t d_rn = (int64_t)table[i] - (int64_t)as_bits(rn);
    int64_t d_rz = (int64_t)table[i] - (int64_t)as_bits(rz);
    histogram_rn[d_rn < -4 ? 0 : d_rn > 4 ? 8 : d_rn + 4]++;
    histogram_rz[d_rz < -4 ? 0 : d_rz > 4 ? 8 : d_rz + 4]++;
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((table[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
    leb128(deltas, d_rn >= 0 ? (uint64_t)d_rn << 1 : ((uint64_t)(-d_rn - 1) << 1) | 1);
  }
  printf("%s: table of %u entries from 1.0, hash %016llx\n", name, n, (unsigned long long)hash);
  printf("%s: entry - correctly rounded (<=-4 .. >=4):", name);
  for (long long h : histogram_rn) printf(" %lld", h);
  printf("\n%s: entry - truncated        (<=-4 .. >=4):", name);
  for (long long h : histogram_rz) printf(" %lld", h);
  printf("\n%s: all 2^32 floats: %llu by the table, %llu mismatched (first x %08x gpu %08x predicted %08x); "
         "special %llu: zero/subnormal->inf %llu (sign not kept %llu), inf->zero %llu (sign not kept %llu), "
         "NaN 0x7fffffff %llu, other NaN %llu, NaN from a number %llu\n",
         name, c.checked, c.mismatched, c.first_x, c.first_gpu, c.first_predicted, c.special, c.sub_inf,
         c.zero_neg, c.inf_zero, c.zero_pos, c.nan_canonical, c.nan_other, c.neg_nan);
  if (dir) {
    std::string path = std::string(dir) + "/" + name + ".deltas";
    FILE* f = fopen(path.c_str(), "wb");
    if (!f || fwrite(deltas.data(), 1, deltas.size(), f) != deltas.size() || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s\n", name, path.c_str());
      return 2;
    }
  }
  cudaFree(d_table);
  cudaFree(d_counts);
  return 0;
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : nullptr;
  int status = run(0, dir);
  return status ? status : run(1, dir);
}
