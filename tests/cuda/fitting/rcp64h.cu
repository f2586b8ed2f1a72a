// rcp64h.cu: measures, on the GPU, the hardware's double reciprocal seed
// (PTX rcp.approx.ftz.f64, SASS MUFU.RCP64H) that CUDA's double log starts
// from (src/emulate/shim/cuda_emu_math.h, cuda_log), for every high word
// log's argument reduction can give it: d = m + 1 with m in [sqrt(1/2),
// sqrt(2)), high words 0x3ffb0000 to 0x4003ffff (the table's range is a
// little wider than that).
//
// It checks that the seed's low word is zero and that its high word
// depends on d's high word only (every high word again with a random low
// word), prints the table's hash (FNV-1a over its little-endian bytes, as
// src/emulate/tables.rs computes it) and writes DIR/rcp64h.deltas: the
// differences between consecutive entries, zigzag LEB128, the format of the
// sine table (box_muller_tables.cu).
//
//   nvcc -O2 -arch=sm_90 -o rcp64h tests/cuda/fitting/rcp64h.cu && ./rcp64h DIR
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

const uint32_t kFirst = 0x3ffb0000u;
const uint32_t kEnd = 0x40040000u;

__global__ void seeds(uint32_t first, unsigned long long* zero_low, unsigned long long* random_low,
                      uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t high = first + i;
  uint32_t low = (i * 2654435761u) ^ 0x9e3779b9u;
  double a = __hiloint2double((int)high, 0), b = __hiloint2double((int)high, (int)low), ra, rb;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(ra) : "d"(a));
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(rb) : "d"(b));
  zero_low[i] = (unsigned long long)__double_as_longlong(ra);
  random_low[i] = (unsigned long long)__double_as_longlong(rb);
}

static void leb128(std::vector<unsigned char>& out, uint64_t v) {
  do {
    unsigned char byte = v & 0x7f;
    v >>= 7;
    out.push_back(byte | (v ? 0x80 : 0));
  } while (v);
}

int main(int argc, char** argv) {
  const uint32_t n = kEnd - kFirst;
  unsigned long long *d_zero, *d_random;
  cudaMalloc(&d_zero, n * 8ull);
  cudaMalloc(&d_random, n * 8ull);
  seeds<<<(n + 255) / 256, 256>>>(kFirst, d_zero, d_random, n);
  std::vector<unsigned long long> zero(n), random(n);
  cudaMemcpy(zero.data(), d_zero, n * 8ull, cudaMemcpyDeviceToHost);
  cudaMemcpy(random.data(), d_random, n * 8ull, cudaMemcpyDeviceToHost);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "rcp64h: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  uint64_t low_nonzero = 0, depends_on_low = 0, hash = 1469598103934665603ull;
  std::vector<unsigned char> deltas;
  int64_t previous = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if ((uint32_t)zero[i] != 0) ++low_nonzero;
    if (random[i] != zero[i]) ++depends_on_low;
    uint32_t high = (uint32_t)(zero[i] >> 32);
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((high >> (8 * b)) & 0xff)) * 1099511628211ull;
    int64_t d = (int64_t)high - previous;
    leb128(deltas, d >= 0 ? (uint64_t)d << 1 : ((uint64_t)(-d - 1) << 1) | 1);
    previous = high;
  }
  printf("rcp64h: high words %08x..%08x, %u entries, low word nonzero %llu, changed by the low word %llu, "
         "hash %016llx, first %08x last %08x\n",
         kFirst, kEnd - 1, n, (unsigned long long)low_nonzero, (unsigned long long)depends_on_low,
         (unsigned long long)hash, (unsigned)(zero[0] >> 32), (unsigned)(zero[n - 1] >> 32));
  if (argc > 1) {
    std::string path = std::string(argv[1]) + "/rcp64h.deltas";
    FILE* f = fopen(path.c_str(), "wb");
    if (!f || fwrite(deltas.data(), 1, deltas.size(), f) != deltas.size() || fclose(f) != 0) {
      fprintf(stderr, "rcp64h: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  return 0;
}
