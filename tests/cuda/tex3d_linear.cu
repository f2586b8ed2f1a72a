// Trilinear filtering of a 4x3x2 float cudaArray through tex3D along a line
// of points, printed as hex floats. The emulator refuses it at the fetch
// (the H200's float sums of the two slices were not reproduced bit for bit;
// the weights were, see tex3d_int_normalized).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample3d(cudaTextureObject_t tex, const float4* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, at[i].x, at[i].y, at[i].z);
}

int main() {
  const int W = 4, H = 3, D = 2;
  float host[D][H][W];
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) host[z][y][x] = 100 * z + 10 * y + x + 0.125f * (x * y + z);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t tex;
  printf("create %d\n", (int)cudaCreateTextureObject(&tex, &res, &td, nullptr));
  float4 at[40];
  for (int k = 0; k < 40; ++k) at[k] = make_float4(0.3f + k * 0.09f, 0.2f + k * 0.061f, 0.1f + k * 0.047f, 0);
  float4* d_at;
  float* d_out;
  cudaMalloc(&d_at, sizeof at);
  cudaMalloc(&d_out, 40 * sizeof(float));
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  sample3d<<<1, 64>>>(tex, d_at, 40, d_out);
  float out[40];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 40; ++i) printf("%a%s", out[i], i % 8 == 7 ? "\n" : " ");
  return 0;
}
