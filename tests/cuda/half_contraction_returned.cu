// A half-precision product returned by a __device__ function and added by the
// caller: does nvcc fuse it into the caller's addition once it inlines the
// function (one rounding, as __hfma), or round it at the return (as __hmul
// then __hadd)? Also: the call's result stored into a variable then added,
// the function __noinline__, and the __half2 and bfloat16 forms. 4096 operand
// triples; for each form, how many results equal the fused value, how many
// the twice-rounded one (the triples where the two differ are counted apart).
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __half mul(__half a, __half b) { return a * b; }
__device__ __half mul_h(__half a, __half b) { return __hmul(a, b); }
__device__ __noinline__ __half mul_never_inlined(__half a, __half b) { return a * b; }
__device__ __nv_bfloat16 mul_bf(__nv_bfloat16 a, __nv_bfloat16 b) { return a * b; }
__device__ __half2 mul2(__half2 a, __half2 b) { return a * b; }

#define FORMS 7
__global__ void k(const __half* x, const __nv_bfloat16* y, int n, unsigned short* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = x[3 * i], b = x[3 * i + 1], c = x[3 * i + 2];
  __nv_bfloat16 p = y[3 * i], q = y[3 * i + 1], r = y[3 * i + 2];
  unsigned short* o = out + (size_t)i * (FORMS + 4);
  o[0] = __half_as_ushort(mul(a, b) + c);
  o[1] = __half_as_ushort(__hadd(c, mul_h(a, b)));
  __half t = mul(a, b);
  o[2] = __half_as_ushort(t + c);
  o[3] = __half_as_ushort(mul_never_inlined(a, b) + c);
  o[4] = __bfloat16_as_ushort(mul_bf(p, q) + r);
  __half2 s = mul2(__halves2half2(a, b), __halves2half2(b, a)) + __halves2half2(c, c);
  o[5] = __half_as_ushort(__low2half(s));
  o[6] = __half_as_ushort(__high2half(s));
  // The references: fused once, and rounded twice.
  o[7] = __half_as_ushort(__hfma(a, b, c));
  o[8] = __half_as_ushort(__hadd_rn(__hmul_rn(a, b), c));
  o[9] = __bfloat16_as_ushort(__hfma(p, q, r));
  o[10] = __bfloat16_as_ushort(__hadd_rn(__hmul_rn(p, q), r));
}

static uint32_t state = 12345;
static uint32_t next() { state = state * 1664525u + 1013904223u; return state >> 8; }

int main() {
  const int n = 4096;
  __half* hx = new __half[3 * n];
  __nv_bfloat16* hy = new __nv_bfloat16[3 * n];
  for (int i = 0; i < 3 * n; ++i) {
    // Operands in about [-4, 4]: many products whose second rounding matters.
    float f = ((int)(next() % 65536) - 32768) / 8192.0f;
    hx[i] = __float2half_rn(f);
    hy[i] = __float2bfloat16_rn(f * 1.37f);
  }
  __half* dx;
  __nv_bfloat16* dy;
  unsigned short* dout;
  cudaMalloc(&dx, 3 * n * sizeof(__half));
  cudaMalloc(&dy, 3 * n * sizeof(__nv_bfloat16));
  cudaMalloc(&dout, (size_t)n * (FORMS + 4) * sizeof(unsigned short));
  cudaMemcpy(dx, hx, 3 * n * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, 3 * n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice);
  k<<<(n + 127) / 128, 128>>>(dx, dy, n, dout);
  unsigned short* out = new unsigned short[(size_t)n * (FORMS + 4)];
  cudaMemcpy(out, dout, (size_t)n * (FORMS + 4) * sizeof(unsigned short), cudaMemcpyDeviceToHost);
  const char* names[FORMS] = {"mul(a, b) + c", "__hadd(c, mul_h(a, b))", "t = mul(a, b); t + c",
                              "__noinline__ mul(a, b) + c", "bf16 mul(p, q) + r",
                              "half2 mul2 + c, low", "half2 mul2 + c, high"};
  for (int f = 0; f < FORMS; ++f) {
    int fused = 0, twice = 0, differ = 0, other = 0;
    for (int i = 0; i < n; ++i) {
      const unsigned short* o = out + (size_t)i * (FORMS + 4);
      unsigned short one = f == 4 ? o[9] : o[7], two = f == 4 ? o[10] : o[8];
      if (f == 6) {  // high lane: b * a + c, the same values
        one = o[7];
        two = o[8];
      }
      if (one == two) continue;
      ++differ;
      if (o[f] == one) ++fused;
      else if (o[f] == two) ++twice;
      else ++other;
    }
    printf("%-28s where fused and twice-rounded differ (%d): fused %d, rounded twice %d, other %d\n",
           names[f], differ, fused, twice, other);
  }
  printf("done %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
