// Per-operation cost of warp intrinsics of a converged warp under CPU emulation,
// run as a loop over the warp's lanes (the default) or, with CUDA_EMU_LANE_LOOPS=0,
// each lane on a fiber of its own that meets its warp by fiber switches.
// scripts/bench-warp runs this program both ways and prints the ratio; it is not a
// test. No barrier and no shared memory, so the program is not built for the warp
// lock step, whose launches meet at every access in their first block and run lane
// loops in the others only (benches/warp/lane_barriers.cu measures that). Each
// kernel (benches/warp/warp_kernels.cuh) runs one 32-thread block per launch, and
// this prints nanoseconds per lane per operation.
#include <cuda_runtime.h>

#include <cstdio>

#include "warp_kernels.cuh"

int main() {
  unsigned* out;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  const int k = 20000, launches = 10;
  const double ops = 32.0 * k * launches;
  const double base = seconds(loop, out, k, launches);
  for (const WarpCase& c : kWarpCases) {
    const double ns = (seconds(c.kernel, out, k, launches) - base) / ops * 1e9;
    printf("%-10s %7.2f ns per lane per operation\n", c.name, ns);
  }
  unsigned h[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("check %08x\n", h[0] ^ h[31]);
  return 0;
}
