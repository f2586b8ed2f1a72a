// mufu_tanh_check.cu: the FNV-1a hash of tanh.approx.f32 over all 2^32
// floats, in the order of their bits, as mufu_tanh.cu prints it ("all 2^32
// results"); run under the emulator it checks the emulator's tables and
// rules against that GPU run, every float:
//
//   mdbook-evidence run --backend emulate tests/cuda/fitting/mufu_tanh_check.cu
#include <cstdint>
#include <cstdio>

__global__ void evaluate(uint32_t base, uint32_t per_thread, uint32_t* out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  for (uint32_t k = 0; k < per_thread; ++k) {
    const uint32_t i = t * per_thread + k;
    float r;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(__uint_as_float(base + i)));
    out[i] = __float_as_uint(r);
  }
}

int main() {
  const uint32_t chunk = 1u << 26, per_thread = 1u << 12;
  uint32_t* out;
  if (cudaMallocManaged(&out, chunk * 4ull) != cudaSuccess) return 1;
  uint64_t hash = 1469598103934665603ull;
  for (uint64_t base = 0; base < (1ull << 32); base += chunk) {
    evaluate<<<chunk / per_thread / 64, 64>>>(static_cast<uint32_t>(base), per_thread, out);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      printf("launch failed\n");
      return 1;
    }
    for (uint32_t i = 0; i < chunk; ++i)
      for (int b = 0; b < 4; ++b) hash = (hash ^ ((out[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
  }
  printf("all 2^32 results: FNV-1a %016llx\n", static_cast<unsigned long long>(hash));
  return 0;
}
