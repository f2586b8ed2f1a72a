// ex2_range.cu: measures, on the GPU, what the hardware's 2^x (PTX
// ex2.approx.ftz.f32, SASS MUFU.EX2) depends on; CUDA's expf ends with it
// (src/emulate/shim/cuda_emu_math.h, cuda_expf).
//
// The hypothesis, after the hardware sine (box_muller_tables.cu): the input
// becomes fixed point with K fraction bits, key = floor(x 2^K) (or the
// nearest integer), and 2^x = 2^(key >> K) * T[key mod 2^K], with
// T[j] = ex2(j 2^-K, rounded up to a float), subnormal results flushed to
// zero (ftz) and overflow to infinity. For K = 22 to 26 and both roundings
// it counts, over every float x with |x| < 256, the results that differ
// from that prediction, and prints the first. For the first rule with no
// difference it writes DIR/ex2.deltas (T as the differences of consecutive
// entries, zigzag LEB128, as rcp64h.cu) and prints T's hash (FNV-1a over
// its little-endian bytes, as src/emulate/tables.rs computes it).
//
//   nvcc -O2 -arch=sm_90 -o ex2_range tests/cuda/fitting/ex2_range.cu && ./ex2_range DIR
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

__device__ float entry_input(long long j, int k) {
  return __double2float_ru((double)j * exp2(-(double)k));
}

struct Found {
  unsigned long long mismatches;
  unsigned first_x, first_gpu, first_predicted;
};

// Threads cover the bit patterns lo .. lo + n - 1 of one sign.
__global__ void check(unsigned lo, unsigned n, int k, int nearest, Found* found) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned bits = lo + i;
  float x = __uint_as_float(bits);
  double scaled = (double)x * exp2((double)k);
  long long key = (long long)(nearest ? rint(scaled) : floor(scaled));
  long long j = key & ((1ll << k) - 1);
  int e = (int)(key >> k);
  double predicted = (double)ex2(entry_input(j, k)) * exp2((double)e);
  float p = predicted < 0x1p-126 ? 0.0f : (float)predicted;  // exact scaling, then ftz
  float g = ex2(x);
  if (__float_as_uint(g) != __float_as_uint(p)) {
    unsigned long long before = atomicAdd(&found->mismatches, 1ull);
    if (before == 0) {
      found->first_x = bits;
      found->first_gpu = __float_as_uint(g);
      found->first_predicted = __float_as_uint(p);
    }
  }
}

__global__ void table(unsigned* t, long long n, int k) {
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j < n) t[j] = __float_as_uint(ex2(entry_input(j, k)));
}

static void leb128(std::vector<unsigned char>& out, uint64_t v) {
  do {
    unsigned char byte = v & 0x7f;
    v >>= 7;
    out.push_back(byte | (v ? 0x80 : 0));
  } while (v);
}

int main(int argc, char** argv) {
  Found* d_found;
  cudaMalloc(&d_found, sizeof(Found));
  const unsigned below256 = 0x43800000u;  // bits of 256.0f: every smaller magnitude
  int chosen_k = -1, chosen_nearest = 0;
  for (int k = 22; k <= 26; ++k)
    for (int nearest = 0; nearest < 2; ++nearest) {
      cudaMemset(d_found, 0, sizeof(Found));
      for (unsigned sign = 0; sign < 2; ++sign)
        check<<<(below256 + 255) / 256, 256>>>(sign << 31, below256, k, nearest, d_found);
      Found f;
      cudaMemcpy(&f, d_found, sizeof f, cudaMemcpyDeviceToHost);
      printf("ex2: K=%d %s: %llu of %u floats differ", k, nearest ? "nearest" : "floor", f.mismatches,
             2 * below256);
      if (f.mismatches)
        printf(", first x %08x gpu %08x predicted %08x", f.first_x, f.first_gpu, f.first_predicted);
      printf("\n");
      if (f.mismatches == 0 && chosen_k < 0) chosen_k = k, chosen_nearest = nearest;
    }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "ex2_range: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  if (chosen_k < 0) {
    printf("ex2: no rule holds\n");
    return 1;
  }
  const long long n = 1ll << chosen_k;
  unsigned* d_t;
  cudaMalloc(&d_t, n * 4);
  table<<<(unsigned)((n + 255) / 256), 256>>>(d_t, n, chosen_k);
  std::vector<unsigned> t(n);
  cudaMemcpy(t.data(), d_t, n * 4, cudaMemcpyDeviceToHost);
  uint64_t hash = 1469598103934665603ull;
  std::vector<unsigned char> deltas;
  int64_t previous = 0;
  for (long long j = 0; j < n; ++j) {
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((t[j] >> (8 * b)) & 0xff)) * 1099511628211ull;
    int64_t d = (int64_t)t[j] - previous;
    leb128(deltas, d >= 0 ? (uint64_t)d << 1 : ((uint64_t)(-d - 1) << 1) | 1);
    previous = t[j];
  }
  printf("ex2: table for K=%d %s: %lld entries, hash %016llx, first %08x last %08x\n", chosen_k,
         chosen_nearest ? "nearest" : "floor", n, (unsigned long long)hash, t[0], t[n - 1]);
  if (argc > 1) {
    std::string path = std::string(argv[1]) + "/ex2.deltas";
    FILE* f = fopen(path.c_str(), "wb");
    if (!f || fwrite(deltas.data(), 1, deltas.size(), f) != deltas.size() || fclose(f) != 0) {
      fprintf(stderr, "ex2_range: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  return 0;
}
