// The hyperbolic tangents of cuda_fp16.h and cuda_bf16.h and the __tanhf
// intrinsic: htanh (CUDA's tanhf of the float rounded to nearest, for a
// half; the hardware tanh.approx.f32 rounded to nearest, for a bfloat16),
// htanh_approx (the hardware's tanh.approx.f16 and .bf16) and their pairs,
// over all 65536 inputs of each format (the pair forms with each input
// beside its bitwise complement), and __tanhf (tanh.approx.f32) of every
// 4099th float. Prints an FNV-1a hash of each function's results and a few
// of them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

constexpr uint32_t kN = 65536;
constexpr uint32_t kStride = 4099;
constexpr uint32_t kFloats = 0xffffffffu / kStride + 1;

__global__ void halves(uint16_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half h = __ushort_as_half(static_cast<unsigned short>(i));
  const __half c = __ushort_as_half(static_cast<unsigned short>(~i));
  out[i] = __half_as_ushort(htanh(h));
  out[kN + i] = __half_as_ushort(htanh_approx(h));
  const __half2 p = h2tanh(__halves2half2(h, c));
  const __half2 q = h2tanh_approx(__halves2half2(h, c));
  out[2 * kN + i] = __half_as_ushort(__low2half(p)) ^ __half_as_ushort(__high2half(p));
  out[3 * kN + i] = __half_as_ushort(__low2half(q)) ^ __half_as_ushort(__high2half(q));
}

__global__ void bfloats(uint16_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const __nv_bfloat16 h = __ushort_as_bfloat16(static_cast<unsigned short>(i));
  const __nv_bfloat16 c = __ushort_as_bfloat16(static_cast<unsigned short>(~i));
  out[i] = __bfloat16_as_ushort(htanh(h));
  out[kN + i] = __bfloat16_as_ushort(htanh_approx(h));
  const __nv_bfloat162 p = h2tanh(__halves2bfloat162(h, c));
  const __nv_bfloat162 q = h2tanh_approx(__halves2bfloat162(h, c));
  out[2 * kN + i] = __bfloat16_as_ushort(__low2bfloat16(p)) ^ __bfloat16_as_ushort(__high2bfloat16(p));
  out[3 * kN + i] = __bfloat16_as_ushort(__low2bfloat16(q)) ^ __bfloat16_as_ushort(__high2bfloat16(q));
}

__global__ void floats(uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kFloats) out[i] = __float_as_uint(__tanhf(__uint_as_float(i * kStride)));
}

uint64_t fnv(const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < bytes; ++k) h = (h ^ p[k]) * 1099511628211ull;
  return h;
}

int main() {
  uint16_t *h, *b;
  uint32_t* f;
  cudaMallocManaged(&h, 4 * kN * 2);
  cudaMallocManaged(&b, 4 * kN * 2);
  cudaMallocManaged(&f, kFloats * 4ull);
  halves<<<kN / 256, 256>>>(h);
  bfloats<<<kN / 256, 256>>>(b);
  floats<<<(kFloats + 255) / 256, 256>>>(f);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  const char* names[4] = {"htanh", "htanh_approx", "h2tanh (lanes xor)", "h2tanh_approx (lanes xor)"};
  for (int k = 0; k < 4; ++k) {
    printf("half %s: FNV-1a %016llx; 3c00 -> %04x, b266 -> %04x, 0001 -> %04x\n", names[k],
           static_cast<unsigned long long>(fnv(h + k * kN, kN * 2)), h[k * kN + 0x3c00],
           h[k * kN + 0xb266], h[k * kN + 1]);
    printf("bfloat16 %s: FNV-1a %016llx; 3f80 -> %04x, be4d -> %04x, 0001 -> %04x\n", names[k],
           static_cast<unsigned long long>(fnv(b + k * kN, kN * 2)), b[k * kN + 0x3f80],
           b[k * kN + 0xbe4d], b[k * kN + 1]);
  }
  printf("__tanhf of every %uth float, %u results: FNV-1a %016llx\n", kStride, kFloats,
         static_cast<unsigned long long>(fnv(f, kFloats * 4ull)));
  return 0;
}
