// A small subset of inline PTX: special registers (%laneid, %warpid, %smid, %nsmid,
// %clock, %clock64, %globaltimer, %lanemask_eq/le/lt/ge/gt) read with mov, and plain
// mov/add/mul.lo/mad.lo around them, with register and immediate operands. Only values
// and properties that hold on any run are printed: lane ids and masks exactly, smid <
// nsmid, warpid below the warps an SM holds, clocks that do not go backwards.
#include <cuda_runtime.h>

#include <cstdio>

__device__ unsigned lanemask(int which) {
  unsigned m = 0;
  switch (which) {
    case 0: asm("mov.u32 %0, %%lanemask_eq;" : "=r"(m)); break;
    case 1: asm("mov.u32 %0, %%lanemask_le;" : "=r"(m)); break;
    case 2: asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); break;
    case 3: asm("mov.u32 %0, %%lanemask_ge;" : "=r"(m)); break;
    default: asm("mov.u32 %0, %%lanemask_gt;" : "=r"(m)); break;
  }
  return m;
}

__global__ void sregs(unsigned* out, unsigned long long* t) {
  unsigned i = threadIdx.x;
  unsigned lane, warp, sm, nsm, c1, c2;
  unsigned long long k1, k2, g1, g2;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c1));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(k1));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  int x = static_cast<int>(i) - 20, y = 3, z = -7, r1, r2, r3, r4;
  unsigned u1, u2;
  asm("add.s32 %0, %1, %2;" : "=r"(r1) : "r"(x), "r"(y));
  asm("mul.lo.s32 %0, %1, %2;" : "=r"(r2) : "r"(x), "r"(z));
  asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(x), "r"(z));
  asm("add.s32 %0, %1, 1000;" : "=r"(r4) : "r"(x));
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(u1) : "r"(0x9e3779b9u), "r"(i + 1));
  asm("mov.u32 %0, %%laneid;\n\tadd.u32 %0, %0, %1;" : "=r"(u2) : "r"(i * 100));
  unsigned long long wide = 0;
  asm("mad.lo.u64 %0, %1, %2, %3;" : "=l"(wide) : "l"(0x123456789ull), "l"(i + 3ull), "l"(77ull));
  for (int k = 0; k < 200; ++k) x = x * 3 + 1;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c2));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(k2));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g2));
  unsigned* o = out + (blockIdx.x * blockDim.x + i) * 16;
  o[0] = lane;
  o[1] = warp < 64;
  o[2] = sm < nsm;
  o[3] = nsm;
  o[4] = c2 - c1 < 100000000u;
  o[5] = k2 >= k1;
  o[6] = g2 >= g1;
  o[7] = static_cast<unsigned>(r1);
  o[8] = static_cast<unsigned>(r2);
  o[9] = static_cast<unsigned>(r3);
  o[10] = static_cast<unsigned>(r4);
  o[11] = u1;
  o[12] = u2;
  o[13] = static_cast<unsigned>(wide);
  o[14] = static_cast<unsigned>(wide >> 32);
  o[15] = lanemask(i % 5) ^ static_cast<unsigned>(x & 0);
  t[blockIdx.x * blockDim.x + i] = k1;
}

int main() {
  const int nb = 2, nt = 40;
  unsigned* d;
  unsigned long long* t;
  cudaMalloc(&d, nb * nt * 16 * sizeof(unsigned));
  cudaMalloc(&t, nb * nt * sizeof(unsigned long long));
  sregs<<<nb, nt>>>(d, t);
  unsigned h[nb * nt * 16];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < nb * nt; ++i) {
    std::printf("%02d:", i);
    for (int k = 0; k < 16; ++k) std::printf(" %x", h[i * 16 + k]);
    std::printf("\n");
  }
  std::printf("errors %d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
