// mufu_lg2.cu: measures the hardware's log2 (lg2.approx.ftz.f32, SASS
// MUFU.LG2), on which CUDA's __logf, __log2f, __log10f, __powf, cbrtf and
// rcbrtf end, on every float.
//
// The question, as for 2^x (mufu_ex2.cu): does it follow tables over the
// mantissas, shifted by the input's exponent e (x = 2^e (1 + i 2^-23))?
// Three tables are taken on the GPU, results for the exponents 0, -1, -2:
//   - L[i] = lg2(bits 0x3f800000 | i): inputs in [1, 2), results F in [0, 1);
//   - M[i] = lg2(bits 0x3f000000 | i): inputs in [1/2, 1), results F - 1;
//   - N[i] = lg2(bits 0x3e800000 | i): inputs in [1/4, 1/2), results F - 2.
// If the hardware adds e to one value F(i) and cuts the sum toward zero to
// a float, then for e >= 1 the result is e + floor(F 2^23) 2^-23, cut, and
// floor(F 2^23) is L's (floor(L 2^23)); for e <= -2 it is e + ceil(F 2^23)
// 2^-23, cut, and ceil(F 2^23) is N's (2^24 + N 2^23). The program counts
// that rule's mismatches over every positive normal float of the other
// exponents, by exponent, and, for the record, the simpler rules "e + F"
// with F = L (or 1 + M where L >= 1/2) rounded to float each way. Then zeros,
// subnormals (ftz: -inf), negatives, infinity and NaN; and how often N says
// more than L (ceil(F 2^23) from N against floor(L 2^23) + [L is off the
// 2^-23 grid]). It writes the three tables raw to DIR/lg2_{L,M,N}.bin
// (little-endian result bits, 2^23 each) and prints their FNV-1a hashes.
//
//   nvcc -O2 -arch=sm_90 -o mufu_lg2 tests/cuda/fitting/mufu_lg2.cu && ./mufu_lg2 DIR
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

__device__ float lg2(float x) {
  float r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

const uint32_t kMantissas = 1u << 23;
const uint32_t kTableBits[3] = {0x3f800000u, 0x3f000000u, 0x3e800000u};

__global__ void tables(uint32_t* l, uint32_t* m, uint32_t* n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kMantissas) return;
  l[i] = __float_as_uint(lg2(__uint_as_float(0x3f800000u | i)));
  m[i] = __float_as_uint(lg2(__uint_as_float(0x3f000000u | i)));
  n[i] = __float_as_uint(lg2(__uint_as_float(0x3e800000u | i)));
}

struct Rule {
  unsigned long long mismatches;
  uint32_t first_x, first_gpu, first_predicted;
};

const int kSimple = 4;
struct Counts {
  Rule tables_rule;
  unsigned long long by_exponent[256];
  Rule simple[kSimple];
  Rule zero, subnormal, negative, infinity, nan;
  unsigned long long n_adds, l_falls, n_falls;
};

__device__ void record(Rule& r, uint32_t x, uint32_t gpu, uint32_t predicted) {
  if (gpu == predicted) return;
  if (atomicAdd(&r.mismatches, 1ull) == 0) {
    r.first_x = x;
    r.first_gpu = gpu;
    r.first_predicted = predicted;
  }
}

// floor(F 2^23) from L, ceil(F 2^23) from N (N = F - 2 in [-2, -1]).
__device__ double floor23(const uint32_t* l, uint32_t i) { return floor((double)__uint_as_float(l[i]) * 0x1p23); }
__device__ double ceil23(const uint32_t* n, uint32_t i) { return 0x1p24 + (double)__uint_as_float(n[i]) * 0x1p23; }

__device__ float predicted(const uint32_t* l, const uint32_t* n, int e, uint32_t i) {
  double f = e >= 1 ? floor23(l, i) : ceil23(n, i);
  return __double2float_rz((double)e + f * 0x1p-23);  // the sum is exact in double
}

__global__ void check(const uint32_t* l, const uint32_t* m, const uint32_t* n, uint32_t hi, Counts* c) {
  uint32_t bits = (hi << 16) | (blockIdx.x * blockDim.x + threadIdx.x);
  float x = __uint_as_float(bits);
  uint32_t gpu = __float_as_uint(lg2(x));
  if (isnan(x)) return record(c->nan, bits, gpu, 0x7fffffffu);
  if (x == 0.0f) return record(c->zero, bits, gpu, 0xff800000u);
  if (fabsf(x) < 0x1p-126f) return record(c->subnormal, bits, gpu, 0xff800000u);  // flushed to a signed zero
  if (x < 0.0f) return record(c->negative, bits, gpu, 0x7fffffffu);
  if (isinf(x)) return record(c->infinity, bits, gpu, 0x7f800000u);
  int e = (int)(bits >> 23) - 127;
  if (e == 0 || e == -1 || e == -2) return;  // the tables themselves
  uint32_t i = bits & 0x7fffffu;
  uint32_t p = __float_as_uint(predicted(l, n, e, i));
  if (p != gpu) atomicAdd(&c->by_exponent[e + 127], 1ull);
  record(c->tables_rule, bits, gpu, p);
  // The simpler rules: F at its finest from L and M, rounded each way.
  float a = __uint_as_float(l[i]);
  double f = a < 0.5f ? (double)a : 1.0 + (double)__uint_as_float(m[i]);
  double v = (double)e + f;
  record(c->simple[0], bits, gpu, __float_as_uint(__double2float_rn(v)));
  record(c->simple[1], bits, gpu, __float_as_uint(__double2float_rz(v)));
  record(c->simple[2], bits, gpu, __float_as_uint(__double2float_rd(v)));
  record(c->simple[3], bits, gpu, __float_as_uint(__double2float_ru(v)));
}

__global__ void shape(const uint32_t* l, const uint32_t* n, Counts* c) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kMantissas) return;
  double fl = floor23(l, i);
  bool off_grid = (double)__uint_as_float(l[i]) * 0x1p23 != fl;
  if (ceil23(n, i) != fl + (off_grid ? 1.0 : 0.0)) atomicAdd(&c->n_adds, 1ull);
  if (i > 0 && l[i] < l[i - 1]) atomicAdd(&c->l_falls, 1ull);
  if (i > 0 && __uint_as_float(n[i]) < __uint_as_float(n[i - 1])) atomicAdd(&c->n_falls, 1ull);
}

static uint64_t fnv1a(const std::vector<uint32_t>& v) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t e : v)
    for (int k = 0; k < 4; ++k) h = (h ^ ((e >> (8 * k)) & 255u)) * 1099511628211ull;
  return h;
}

static void print(const char* name, const Rule& r) {
  printf("lg2: %s: %llu mismatches", name, r.mismatches);
  if (r.mismatches) printf(", first x %08x gpu %08x predicted %08x", r.first_x, r.first_gpu, r.first_predicted);
  printf("\n");
}

static bool fail(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return false;
  fprintf(stderr, "mufu_lg2: %s: %s\n", what, cudaGetErrorString(e));
  return true;
}

int main(int argc, char** argv) {
  uint32_t* t[3];
  Counts* c;
  for (auto& p : t)
    if (cudaMalloc(&p, kMantissas * 4ull)) {
      fprintf(stderr, "mufu_lg2: cannot allocate the tables\n");
      return 2;
    }
  if (cudaMalloc(&c, sizeof(Counts))) return 2;
  cudaMemset(c, 0, sizeof(Counts));
  tables<<<kMantissas / 256, 256>>>(t[0], t[1], t[2]);
  for (uint32_t hi = 0; hi < 0x10000u; ++hi) check<<<256, 256>>>(t[0], t[1], t[2], hi, c);
  shape<<<kMantissas / 256, 256>>>(t[0], t[2], c);
  cudaDeviceSynchronize();
  if (fail("running")) return 2;
  Counts h;
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  print("e >= 1: e + floor(L 2^23) 2^-23, e <= -2: e + ceil from N, cut toward zero", h.tables_rule);
  for (int e = 0; e < 256; ++e)
    if (h.by_exponent[e]) printf("lg2:   exponent %d: %llu mismatches\n", e - 127, h.by_exponent[e]);
  const char* names[kSimple] = {"e + F, F from L and M, to nearest even", "e + F, toward zero", "e + F, down",
                                "e + F, up"};
  for (int r = 0; r < kSimple; ++r) print(names[r], h.simple[r]);
  print("zero gives -inf", h.zero);
  print("subnormal (either sign) gives -inf", h.subnormal);
  print("negative normal gives 7fffffff", h.negative);
  print("+inf gives +inf", h.infinity);
  print("NaN gives 7fffffff", h.nan);
  printf("lg2: N's ceil(F 2^23) differs from L's floor + [L off the grid] at %llu mantissas; L falls %llu times, "
         "N falls %llu times\n",
         h.n_adds, h.l_falls, h.n_falls);
  const char* table_names[3] = {"L", "M", "N"};
  for (int s = 0; s < 3; ++s) {
    std::vector<uint32_t> v(kMantissas);
    cudaMemcpy(v.data(), t[s], kMantissas * 4, cudaMemcpyDeviceToHost);
    if (fail("copying")) return 2;
    printf("lg2: %s (inputs from %08x): first %08x, last %08x, hash %016llx\n", table_names[s], kTableBits[s], v[0],
           v.back(), (unsigned long long)fnv1a(v));
    if (argc > 1) {
      std::string path = std::string(argv[1]) + "/lg2_" + table_names[s] + ".bin";
      FILE* f = fopen(path.c_str(), "wb");
      if (!f || fwrite(v.data(), 4, v.size(), f) != v.size() || fclose(f) != 0) {
        fprintf(stderr, "mufu_lg2: cannot write %s\n", path.c_str());
        return 2;
      }
    }
  }
  return 0;
}
