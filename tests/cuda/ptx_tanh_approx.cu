// Inline PTX tanh.approx.f32 (MUFU.TANH): its results for edge values
// (zeros, subnormals, 2^-8 and its neighbours, the binade starts where the
// hardware's result falls, 8 and its neighbours, infinities, NaNs), and an
// FNV-1a hash of its results for every 997th float (4.3 million inputs of
// both signs). tests/cuda/fitting/mufu_tanh.cu measured all 2^32.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

constexpr int kEdges = 24;
__constant__ uint32_t kEdge[kEdges] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x3b7fffff, 0x3b800000, 0x3b800001, 0x3b800040,
    0xbb800041, 0x3d7fffff, 0x3d800000, 0xbdc00000, 0x3e200000, 0x3f000000, 0x3f800000, 0xbfc00000,
    0x40fffff8, 0x40ffffff, 0x41000000, 0xc1000001, 0x7f800000, 0xff800000, 0x7fc12345, 0xff800001};

__device__ float hardware_tanh(float x) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

__global__ void edges(uint32_t* out) {
  out[threadIdx.x] = __float_as_uint(hardware_tanh(__uint_as_float(kEdge[threadIdx.x])));
}

__global__ void strided(uint32_t* out, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float_as_uint(hardware_tanh(__uint_as_float(i * 997u)));
}

int main() {
  const uint32_t n = 0xffffffffu / 997u + 1;
  uint32_t *e, *s;
  cudaMallocManaged(&e, kEdges * sizeof(uint32_t));
  cudaMallocManaged(&s, n * sizeof(uint32_t));
  edges<<<1, kEdges>>>(e);
  strided<<<(n + 255) / 256, 256>>>(s, n);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  uint32_t in[kEdges];
  cudaMemcpyFromSymbol(in, kEdge, sizeof(in));
  for (int i = 0; i < kEdges; ++i) printf("tanh.approx(%08x) = %08x\n", in[i], e[i]);
  uint64_t hash = 1469598103934665603ull;
  for (uint32_t i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((s[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
  printf("every 997th float, %u results: FNV-1a %016llx\n", n, static_cast<unsigned long long>(hash));
  return 0;
}
