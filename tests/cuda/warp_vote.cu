// Warp votes and friends: __ballot_sync, __any_sync, __all_sync with full and
// partial masks, __activemask inside a branch, __syncwarp, __match_any_sync,
// __reduce_add_sync / min / max, and a block of 48 threads (a partial last
// warp: its lanes 16-31 do not exist, the mask given is __activemask()).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void votes(unsigned* out) {
  int lane = threadIdx.x % 32;
  unsigned* o = out + (threadIdx.x / 32) * 16;
  unsigned b1 = __ballot_sync(0xffffffffu, lane % 3 == 0);
  int any1 = __any_sync(0xffffffffu, lane == 31);
  int any0 = __any_sync(0xffffffffu, lane > 40);
  int all1 = __all_sync(0xffffffffu, lane < 32);
  int all0 = __all_sync(0xffffffffu, lane != 7);
  unsigned am_branch = 0;
  unsigned b_half = 0;
  if (lane < 16) {
    am_branch = __activemask();
    b_half = __ballot_sync(0x0000ffffu, lane & 1);
  }
  __syncwarp();
  unsigned am_full = __activemask();
  unsigned match = __match_any_sync(0xffffffffu, lane / 4);
  unsigned radd = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(lane));
  int rmin = __reduce_min_sync(0xffffffffu, 10 - lane);
  unsigned rmax = __reduce_max_sync(0xffffffffu, static_cast<unsigned>(lane * 7 % 32));
  if (lane == 0 || lane == 5) {
    int base = lane == 0 ? 0 : 8;
    o[base + 0] = b1;
    o[base + 1] = (any1 << 3) | (any0 << 2) | (all1 << 1) | all0;
    o[base + 2] = am_branch;
    o[base + 3] = b_half;
    o[base + 4] = am_full;
    o[base + 5] = match;
    o[base + 6] = radd;
    o[base + 7] = static_cast<unsigned>(rmin) ^ (rmax << 16);
  }
}

__global__ void partial(unsigned* out) {
  int lane = threadIdx.x % 32;
  unsigned mask = __activemask();
  unsigned b = __ballot_sync(mask, 1);
  int s = __shfl_down_sync(mask, lane, 1);
  if (threadIdx.x == 32) {
    out[0] = mask;
    out[1] = b;
  }
  if (threadIdx.x == 47) out[2] = s;
  if (threadIdx.x == 46) out[3] = s;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 64 * sizeof(unsigned));
  cudaMemset(d, 0, 64 * sizeof(unsigned));
  votes<<<1, 64>>>(d);
  unsigned h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("votes: %s\n", cudaGetErrorString(cudaGetLastError()));
  const char* names[] = {"ballot lane%3==0", "any/all bits", "activemask in lane<16",
                         "ballot mask 0xffff odd", "activemask after syncwarp",
                         "match_any lane/4", "reduce_add", "reduce min|max<<16"};
  for (int w = 0; w < 2; ++w)
    for (int base : {0, 8})
      for (int k = 0; k < 8; ++k)
        std::printf("warp %d lane %d %-26s 0x%08x\n", w, base ? 5 : 0, names[k], h[w * 16 + base + k]);
  cudaMemset(d, 0, 64 * sizeof(unsigned));
  partial<<<1, 48>>>(d);
  cudaMemcpy(h, d, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("48 threads (%s): activemask 0x%08x ballot 0x%08x lane15 down1 %u lane14 down1 %u\n",
              cudaGetErrorString(cudaGetLastError()), h[0], h[1], h[2], h[3]);
  return 0;
}
