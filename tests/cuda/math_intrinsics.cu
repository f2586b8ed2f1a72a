// Integer and conversion intrinsics (exact on any correct implementation),
// min/max overloads, and float functions whose results are exact (printed in
// hex). Transcendentals are left out: the GPU and glibc differ by an ulp.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void ints(unsigned* o) {
  o[0] = __popc(0xf0f0f0f1u);
  o[1] = __popcll(0xffffffffffull);
  o[2] = __clz(1);
  o[3] = __clz(0);
  o[4] = __clzll(1ll);
  o[5] = __ffs(0);
  o[6] = __ffs(0x80);
  o[7] = __ffsll(1ll << 40);
  o[8] = __brev(1u);
  o[9] = __byte_perm(0x33221100u, 0x77665544u, 0x5140u);
  o[10] = __umulhi(0xffffffffu, 0xffffffffu);
  o[11] = __mulhi(-3, 0x40000000);
  o[12] = __sad(3, 10, 100u);
  o[13] = __funnelshift_l(0x80000001u, 0x1u, 4);
  o[14] = __funnelshift_r(0x80000001u, 0x1u, 4);
  o[15] = min(3, -4);
  o[16] = max(3u, 4u);
  o[17] = static_cast<unsigned>(__float2int_rn(2.5f));
  o[18] = static_cast<unsigned>(__float2int_rn(3.5f));
  o[19] = static_cast<unsigned>(__float2int_rn(-2.5f));
  o[20] = static_cast<unsigned>(__float2int_rz(-2.7f));
  o[21] = static_cast<unsigned>(__float2int_rd(-2.2f));
  o[22] = static_cast<unsigned>(__float2int_ru(2.2f));
  o[23] = static_cast<unsigned>(__float2int_rn(3e9f));
  o[24] = static_cast<unsigned>(__float2int_rn(-3e9f));
  o[25] = __float2uint_rn(-1.0f);
  o[26] = static_cast<unsigned>(__float2int_rn(__int_as_float(0x7fc00000)));
  o[27] = __float_as_uint(1.0f);
  o[28] = static_cast<unsigned>(__double2hiint(1.0));
  o[29] = static_cast<unsigned>(__umul24(0x1000001u, 3u));
  o[30] = __uhadd(0xffffffffu, 1u);
  o[31] = static_cast<unsigned>(__float2ll_rn(1e10f) >> 8);
}

__global__ void floats(float* o) {
  o[0] = __saturatef(1.5f);
  o[1] = __saturatef(-0.5f);
  o[2] = __saturatef(0.25f);
  o[3] = fminf(2.0f, -1.0f);
  o[4] = fmaxf(2.0f, -1.0f);
  o[5] = min(2.5f, 1.5f);
  o[6] = max(2.5f, 1.5f);
  o[7] = rsqrtf(4.0f);
  o[8] = __fdividef(1.0f, 4.0f);
  o[9] = fmaf(1.5f, 2.0f, 0.25f);
  o[10] = sqrtf(2.0f);
  o[11] = __fsqrt_rn(2.0f);
  o[12] = __frcp_rn(3.0f);
  o[13] = __fmul_rn(1.1f, 1.1f);
  o[14] = __ldg(o + 10);
  o[15] = __int2float_rn(16777217);
  o[16] = truncf(-2.5f);
  o[17] = rintf(2.5f);
  o[18] = floorf(-0.5f);
  o[19] = copysignf(3.0f, -0.0f);
}

int main() {
  unsigned* du;
  float* df;
  cudaMalloc(&du, 32 * sizeof(unsigned));
  cudaMalloc(&df, 20 * sizeof(float));
  ints<<<1, 1>>>(du);
  floats<<<1, 1>>>(df);
  unsigned hu[32];
  float hf[20];
  cudaMemcpy(hu, du, sizeof hu, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
  std::printf("launches: %s\n", cudaGetErrorString(cudaGetLastError()));
  for (int k = 0; k < 32; ++k) std::printf("int %2d: %u (0x%08x)\n", k, hu[k], hu[k]);
  for (int k = 0; k < 20; ++k) std::printf("float %2d: %a\n", k, hf[k]);
  return 0;
}
