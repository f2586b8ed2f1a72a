// seeds.cu: the hardware's double reciprocal seed (rcp.approx.ftz.f64, SASS
// MUFU.RCP64H) that CUDA's double log starts from, measured on the GPU for the
// high words log's reduction gives, for sweep.cu's model of log
// (src/emulate/shim/cuda_emu_math.h: cuda_log calls reciprocal_high). Linked
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

void measure_reciprocal_seeds() {
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
