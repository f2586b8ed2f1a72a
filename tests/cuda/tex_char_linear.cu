// Linear filtering of signed 8-bit texels read as normalized floats
// (tex1D<float> on a char cudaArray), printed as hex floats: 16-bit values
// N / 32767 (the widening is fitted in src/emulate/shim/cuda_emu_texture.cpp
// on tex_snorm8_linear's measurements).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t tex, const float* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, at[i]);
}

int main() {
  signed char v[6] = {-128, -97, -1, 0, 43, 127};
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<signed char>();
  cudaArray_t a;
  cudaMallocArray(&a, &desc, 6);
  cudaMemcpy2DToArray(a, 0, 0, v, sizeof v, sizeof v, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex;
  printf("create %d\n", (int)cudaCreateTextureObject(&tex, &res, &td, nullptr));
  float at[24];
  for (int k = 0; k < 24; ++k) at[k] = 0.5f + k * 0.21f;
  float* d_at;
  float* d_out;
  cudaMalloc(&d_at, sizeof at);
  cudaMalloc(&d_out, sizeof at);
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  sample<<<1, 32>>>(tex, d_at, 24, d_out);
  float out[24];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 24; ++i) printf("%a%s", out[i], i % 8 == 7 ? "\n" : " ");
  return 0;
}
