// mufu_ex2.cu: measures the hardware's 2^x (ex2.approx.ftz.f32, SASS
// MUFU.EX2), on which CUDA's expf, exp2f, exp10f and others end, on every
// float.
//
// ex2_range.cu found that its result depends on more of the input than a
// fixed-point fraction of 22 to 26 bits. This program asks instead whether it
// follows one table per sign over the floats of magnitude below one,
// scaled by the input's integer part:
//   - P[i] = ex2(float with bits i), Q[i] = ex2(-(float with bits i)), for
//     every i below 0x3f800000 (magnitudes below 1);
//   - for x >= 1, the rule "ex2(x) = P[frac x] * 2^floor(x)", infinity from
//     128 on;
//   - for x <= -1, two rules: by magnitude, "Q[frac |x|] * 2^-floor(|x|)",
//     and by floor, "P[x - floor x] * 2^floor(x)", results below 2^-126
//     flushed to zero;
//   - NaN inputs: how many give anything but 0x7fffffff.
// It counts each rule's mismatches over all 2^32 floats and prints the first.
// Then, as the tables are smaller told by where their result changes: whether
// P rises and Q falls with the magnitude (a monotone table is its
// breakpoints: for each result, the first input that gives it, 2^23 of each),
// and it writes both breakpoint lists raw to DIR/ex2_pos.bp and
// DIR/ex2_neg.bp (little-endian 32-bit input bits, 0xffffffff for a result
// never given) with their FNV-1a hashes.
//
//   nvcc -O2 -arch=sm_90 -o mufu_ex2 tests/cuda/fitting/mufu_ex2.cu && ./mufu_ex2 DIR
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

__device__ float ex2(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

const uint32_t kBelowOne = 0x3f800000u;  // the bits of 1.0f: every smaller magnitude
const uint32_t kResults = (1u << 23) + 1;
const uint32_t kNever = 0xffffffffu;

__global__ void tables(uint32_t* p, uint32_t* q) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kBelowOne) return;
  p[i] = __float_as_uint(ex2(__uint_as_float(i)));
  q[i] = __float_as_uint(ex2(__uint_as_float(i | 0x80000000u)));
}

struct Rule {
  unsigned long long mismatches;
  uint32_t first_x, first_gpu, first_predicted;
};

struct Counts {
  Rule above_one, by_magnitude, by_floor, nan;
  unsigned long long p_falls, q_rises;
  unsigned long long p_out_of_range, q_out_of_range;
};

__device__ void record(Rule& r, uint32_t x, uint32_t gpu, uint32_t predicted) {
  if (gpu == predicted) return;
  if (atomicAdd(&r.mismatches, 1ull) == 0) {
    r.first_x = x;
    r.first_gpu = gpu;
    r.first_predicted = predicted;
  }
}

__device__ uint32_t scaled(uint32_t entry, int e) {
  double v = (double)__uint_as_float(entry) * exp2((double)e);
  if (v < 0x1p-126) return 0;  // ftz
  if (v >= 0x1p128) return 0x7f800000u;
  return __float_as_uint((float)v);  // exact: a power-of-two scaling
}

__global__ void check(const uint32_t* p, const uint32_t* q, uint32_t hi, Counts* c) {
  uint32_t bits = (hi << 16) | (blockIdx.x * blockDim.x + threadIdx.x);
  float x = __uint_as_float(bits);
  uint32_t gpu = __float_as_uint(ex2(x));
  if (isnan(x)) {
    record(c->nan, bits, gpu, 0x7fffffffu);
    return;
  }
  float m = fabsf(x);
  if (m < 1.0f) return;  // the tables themselves
  if (x >= 1.0f) {
    if (x >= 128.0f) {
      record(c->above_one, bits, gpu, 0x7f800000u);
      return;
    }
    float n = floorf(x);
    record(c->above_one, bits, gpu, scaled(p[__float_as_uint(x - n)], (int)n));
    return;
  }
  if (m >= 256.0f) {  // both rules give zero
    record(c->by_magnitude, bits, gpu, 0);
    record(c->by_floor, bits, gpu, 0);
    return;
  }
  float n = floorf(m);
  record(c->by_magnitude, bits, gpu, scaled(q[__float_as_uint(m - n)], -(int)n));
  float f = floorf(x);
  record(c->by_floor, bits, gpu, scaled(p[__float_as_uint(x - f)], (int)f));  // x - f is exact
}

// Whether P rises and Q falls, and each result's first input.
__global__ void breakpoints(const uint32_t* p, const uint32_t* q, uint32_t* bp_p, uint32_t* bp_q, Counts* c) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kBelowOne) return;
  // P's results lie in [1, 2], Q's in [1/2, 1]: index k counts from 1 away.
  uint32_t kp = p[i] - 0x3f800000u, kq = 0x3f800000u - q[i];
  if (kp >= kResults) atomicAdd(&c->p_out_of_range, 1ull);
  else if (i == 0 || p[i] != p[i - 1]) bp_p[kp] = i;
  if (kq >= kResults) atomicAdd(&c->q_out_of_range, 1ull);
  else if (i == 0 || q[i] != q[i - 1]) bp_q[kq] = i;
  if (i > 0 && p[i] < p[i - 1]) atomicAdd(&c->p_falls, 1ull);
  if (i > 0 && q[i] > q[i - 1]) atomicAdd(&c->q_rises, 1ull);
}

static uint64_t fnv1a(const std::vector<uint32_t>& v) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t e : v)
    for (int k = 0; k < 4; ++k) h = (h ^ ((e >> (8 * k)) & 255u)) * 1099511628211ull;
  return h;
}

static void print(const char* name, const Rule& r) {
  printf("ex2: %s: %llu mismatches", name, r.mismatches);
  if (r.mismatches)
    printf(", first x %08x gpu %08x predicted %08x", r.first_x, r.first_gpu, r.first_predicted);
  printf("\n");
}

static bool fail(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return false;
  fprintf(stderr, "mufu_ex2: %s: %s\n", what, cudaGetErrorString(e));
  return true;
}

int main(int argc, char** argv) {
  uint32_t *p, *q, *bp_p, *bp_q;
  Counts* c;
  if (cudaMalloc(&p, kBelowOne * 4ull) || cudaMalloc(&q, kBelowOne * 4ull) || cudaMalloc(&bp_p, kResults * 4) ||
      cudaMalloc(&bp_q, kResults * 4) || cudaMalloc(&c, sizeof(Counts))) {
    fprintf(stderr, "mufu_ex2: cannot allocate the tables\n");
    return 2;
  }
  cudaMemset(c, 0, sizeof(Counts));
  cudaMemset(bp_p, 0xff, kResults * 4);
  cudaMemset(bp_q, 0xff, kResults * 4);
  tables<<<kBelowOne / 256, 256>>>(p, q);
  for (uint32_t hi = 0; hi < 0x10000u; ++hi) check<<<256, 256>>>(p, q, hi, c);
  breakpoints<<<kBelowOne / 256, 256>>>(p, q, bp_p, bp_q, c);
  cudaDeviceSynchronize();
  if (fail("running")) return 2;
  Counts h;
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  print("x >= 1, P[frac x] * 2^floor(x)", h.above_one);
  print("x <= -1, by magnitude, Q[frac |x|] * 2^-floor(|x|)", h.by_magnitude);
  print("x <= -1, by floor, P[x - floor x] * 2^floor(x)", h.by_floor);
  print("NaN gives 7fffffff", h.nan);
  uint32_t first[4];
  cudaMemcpy(&first[0], p, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&first[1], p + kBelowOne - 1, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&first[2], q, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&first[3], q + kBelowOne - 1, 4, cudaMemcpyDeviceToHost);
  printf("ex2: P[0] %08x, P[last] %08x, Q[0] %08x, Q[last] %08x\n", first[0], first[1], first[2], first[3]);
  printf("ex2: P falls %llu times, Q rises %llu times; results outside the range: P %llu, Q %llu\n", h.p_falls,
         h.q_rises, h.p_out_of_range, h.q_out_of_range);
  std::vector<uint32_t> hp(kResults), hq(kResults);
  cudaMemcpy(hp.data(), bp_p, kResults * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hq.data(), bp_q, kResults * 4, cudaMemcpyDeviceToHost);
  if (fail("copying")) return 2;
  for (int s = 0; s < 2; ++s) {
    const std::vector<uint32_t>& v = s ? hq : hp;
    size_t never = 0;
    for (uint32_t e : v) never += e == kNever;
    printf("ex2: %s breakpoints: %u results, %zu never given, hash %016llx\n", s ? "negative" : "positive",
           kResults, never, (unsigned long long)fnv1a(v));
    if (argc > 1) {
      std::string path = std::string(argv[1]) + (s ? "/ex2_neg.bp" : "/ex2_pos.bp");
      FILE* f = fopen(path.c_str(), "wb");
      if (!f || fwrite(v.data(), 4, v.size(), f) != v.size() || fclose(f) != 0) {
        fprintf(stderr, "mufu_ex2: cannot write %s\n", path.c_str());
        return 2;
      }
    }
  }
  return 0;
}
