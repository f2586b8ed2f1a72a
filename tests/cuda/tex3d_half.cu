// Trilinear filtering (tex3D) of half-float texels at random points, for
// fitting how the GPU adds the two z slices: a 6x5x4 array of random halves
// (every exponent, both signs, subnormals) and a 4x4x4 one of halves of
// nearby exponents (13 to 17), clamp addressing, unnormalized coordinates.
// Texels and points from a linear congruential generator; each result's
// float bits are printed, eight to a line.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

unsigned seed = 3;
unsigned next() {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
unsigned short random_half(bool narrow) {
  unsigned short h = next() & 0xffff;
  if (narrow) h = (h & 0x83ff) | ((13 + next() % 5) << 10);
  if ((h & 0x7c00) == 0x7c00) h ^= 0x4000;
  return h;
}
float coordinate(float lo, int span) { return lo + span * static_cast<float>(next() & 0xffff) / 65536.0f; }

__global__ void fetch(cudaTextureObject_t t, const float4* at, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, at[i].x, at[i].y, at[i].z);
}

void run(const char* name, int W, int H, int D, bool narrow, int n) {
  static unsigned short texels[4096];
  for (int k = 0; k < W * H * D; ++k) texels[k] = random_half(narrow);
  cudaChannelFormatDesc d = cudaCreateChannelDescHalf();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &d, make_cudaExtent(W, H, D));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(texels, W * 2, W, H);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  static float4 at[4096];
  static float out[4096];
  for (int i = 0; i < n; ++i)
    at[i] = make_float4(coordinate(-1.0f, W + 2), coordinate(-1.0f, H + 2), coordinate(-1.0f, D + 2), 0);
  float4* d_at;
  float* d_out;
  cudaMalloc(&d_at, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, at, n * sizeof(float4), cudaMemcpyHostToDevice);
  fetch<<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    unsigned u;
    memcpy(&u, &out[i], 4);
    if (i % 8 == 0) printf("%s %4d:", name, i);
    printf(" %08x", u);
    if (i % 8 == 7 || i == n - 1) printf("\n");
  }
}

int main() {
  run("wide", 6, 5, 4, false, 3072);
  run("narrow", 4, 4, 4, true, 2048);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
