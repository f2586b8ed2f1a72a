// Seamless cubemap filtering at a corner of the cube, with an infinity, a NaN
// or a signed zero at one texel. Near a corner the footprint of a linear fetch
// crosses two edges: three of its texels come from three faces and the fourth
// belongs to none (the filter gives its weight to the other three). Does a
// special value at one of the three still decide the result when its own
// weight rounds to 0, or once it has taken a share of the missing texel's?
//
// A 2x2 cubemap, float texels, seamless, linear, normalized coordinates, clamp.
// Every texel is 1.5 (for the zero case -0) but one, the special (+0 for the
// zero case), placed at each of the 24 texels in turn. Directions: the major
// component +-1, the two others +-(1/2 + a/256) with a in {1, 2, 64, 127,
// 128}: past both edges of the face (the corner case) by a/256 of a texel.
// One line per texture: the fetches whose bits are not the base value's, as
// "index:bits" (a fetch of 1.5s, or of -0s, gives that value exactly).
// expected/ holds its run on an H100 (sm_90, like the H200): no H200 was lent
// the day it was written.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

__global__ void lookup(cudaTextureObject_t t, const float4* dir, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

int main() {
  const int steps[] = {1, 2, 64, 127, 128};
  std::vector<float4> dirs;
  for (int axis = 0; axis < 3; ++axis)
    for (int major = -1; major <= 1; major += 2)
      for (int quadrant = 0; quadrant < 4; ++quadrant)
        for (int a : steps)
          for (int b : steps) {
            float c[3];
            c[axis] = (float)major;
            c[(axis + 1) % 3] = (quadrant & 1 ? -1 : 1) * (0.5f + a / 256.0f);
            c[(axis + 2) % 3] = (quadrant & 2 ? -1 : 1) * (0.5f + b / 256.0f);
            dirs.push_back(make_float4(c[0], c[1], c[2], 0));
          }
  const int n = (int)dirs.size();
  printf("%d directions: axis x, y, z; major -1, +1; quadrants; a, b in {1, 2, 64, 127, 128}\n", n);
  float4* d_dirs;
  float* d_out;
  cudaMalloc(&d_dirs, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_dirs, dirs.data(), n * sizeof(float4), cudaMemcpyHostToDevice);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t cube;
  printf("cubemap 2x2x6: %s\n",
         cudaGetErrorName(cudaMalloc3DArray(&cube, &desc, make_cudaExtent(2, 2, 6), cudaArrayCubemap)));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = cube;
  cudaTextureDesc td = {};
  td.filterMode = cudaFilterModeLinear;
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.normalizedCoords = 1;
  td.seamlessCubemap = 1;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  printf("texture: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &res, &td, nullptr)));

  const uint32_t specials[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x00000000};
  std::vector<float> out(n);
  for (uint32_t s : specials)
    for (int texel = 0; texel < 24; ++texel) {
      const float base = s == 0 ? -0.0f : 1.5f;
      float h[24];
      for (float& v : h) v = base;
      h[texel] = from_bits(s);
      cudaMemcpy3DParms p = {};
      p.srcPtr = make_cudaPitchedPtr(h, 2 * sizeof(float), 2, 2);
      p.dstArray = cube;
      p.extent = make_cudaExtent(2, 2, 6);
      p.kind = cudaMemcpyHostToDevice;
      cudaMemcpy3D(&p);
      lookup<<<(n + 127) / 128, 128>>>(t, d_dirs, n, d_out);
      cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
      printf("%08x at face %d (%d, %d):", s, texel / 4, texel % 2, texel / 2 % 2);
      for (int i = 0; i < n; ++i)
        if (bits(out[i]) != bits(base)) printf(" %d:%08x", i, bits(out[i]));
      printf("\n");
    }
  printf("done %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaDestroyTextureObject(t);
  cudaFreeArray(cube);
  return 0;
}
