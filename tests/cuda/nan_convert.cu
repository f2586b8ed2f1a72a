// NaNs converted between float and double in device code, by a C++ cast and
// by inline PTX cvt: which bits the hardware gives a signalling NaN (quieted,
// payload kept or not) and a quiet NaN whose payload a narrower type cannot
// hold. One line per conversion: input bits, then output bits.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kF = 10;
__constant__ unsigned kFloat[kF] = {0x7f800001, 0x7fa00000, 0x7fbfffff, 0xff800001, 0xffa12345,
                                    0x7fc00000, 0x7fc12345, 0xffc00001, 0x7fffffff, 0xffffffff};
constexpr int kD = 10;
__constant__ unsigned long long kDouble[kD] = {
    0x7ff0000000000001ull, 0x7ff4000000000000ull, 0x7ff7ffffffffffffull, 0xfff0000020000000ull,
    0x7ff8000000000000ull, 0x7ff8000020000000ull, 0x7ff800001fffffffull, 0xfff8000012345678ull,
    0x7fffffffffffffffull, 0xffffffffffffffffull};

__global__ void widen(unsigned long long* cast, unsigned long long* ptx) {
  const float f = __uint_as_float(kFloat[threadIdx.x]);
  cast[threadIdx.x] = __double_as_longlong(static_cast<double>(f));
  double d;
  asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(f));
  ptx[threadIdx.x] = __double_as_longlong(d);
}

__global__ void narrow(unsigned* cast, unsigned* ptx) {
  const double d = __longlong_as_double(kDouble[threadIdx.x]);
  cast[threadIdx.x] = __float_as_uint(static_cast<float>(d));
  float f;
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(d));
  ptx[threadIdx.x] = __float_as_uint(f);
}

int main() {
  unsigned long long *wc, *wp;
  unsigned *nc, *np;
  cudaMallocManaged(&wc, kF * sizeof(unsigned long long));
  cudaMallocManaged(&wp, kF * sizeof(unsigned long long));
  cudaMallocManaged(&nc, kD * sizeof(unsigned));
  cudaMallocManaged(&np, kD * sizeof(unsigned));
  widen<<<1, kF>>>(wc, wp);
  narrow<<<1, kD>>>(nc, np);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  unsigned host_f[kF];
  unsigned long long host_d[kD];
  cudaMemcpyFromSymbol(host_f, kFloat, sizeof(host_f));
  cudaMemcpyFromSymbol(host_d, kDouble, sizeof(host_d));
  for (int i = 0; i < kF; ++i)
    printf("float %08x to double: cast %016llx cvt %016llx\n", host_f[i], wc[i], wp[i]);
  for (int i = 0; i < kD; ++i)
    printf("double %016llx to float: cast %08x cvt %08x\n", host_d[i], nc[i], np[i]);
  return 0;
}
