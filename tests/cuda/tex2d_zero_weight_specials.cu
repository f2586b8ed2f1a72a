// 2D linear filtering of a float texture with an infinity, a NaN or a signed
// zero at a texel that is in the fetch's footprint (its weight along x and
// along y is not 0) but whose rounded corner weight is 0: the 2D weights are
// 9-bit fixed point, w(x+1, y+1) = round(ax * ay / 256), so ax = ay = 1/256
// gives that corner 0, and ax = 1/256, ay = 255/256 gives (x+1, y) 0. A 2x2
// cudaArray, unnormalized coordinates, clamp; the special texel at each
// corner in turn, the others 1.5, 2.5, -0.75 and 3.0 (for the zero case all
// -0 but the corner, which is +0); 81 fetches at x = 0.5 + ax / 256,
// y = 0.5 + ay / 256, the fetched bits printed from the host.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static float bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

__global__ void fetch(cudaTextureObject_t t, const float2* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

static cudaTextureObject_t texture(const float* v, cudaArray_t* a) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMallocArray(a, &desc, 2, 2);
  cudaMemcpy2DToArray(*a, 0, 0, v, 2 * sizeof(float), 2 * sizeof(float), 2, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = *a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

int main() {
  const int steps[] = {1, 2, 64, 127, 128, 129, 192, 254, 255};
  std::vector<float2> at;
  for (int ay : steps)
    for (int ax : steps) at.push_back(make_float2(0.5f + ax / 256.0f, 0.5f + ay / 256.0f));
  const int n = at.size();
  float2* d_at;
  float* d_out;
  cudaMalloc(&d_at, n * sizeof(float2));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, at.data(), n * sizeof(float2), cudaMemcpyHostToDevice);
  printf("fetches: ax, ay in {1, 2, 64, 127, 128, 129, 192, 254, 255} / 256, ax fastest\n");
  const uint32_t specials[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x00000000};
  for (uint32_t s : specials)
    for (int corner = 0; corner < 4; ++corner) {
      float v[4] = {1.5f, 2.5f, -0.75f, 3.0f};
      if (s == 0)
        for (float& f : v) f = -0.0f;
      v[corner] = bits(s);
      cudaArray_t a;
      cudaTextureObject_t t = texture(v, &a);
      fetch<<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
      std::vector<float> out(n);
      cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
      printf("%08x at corner %d (x+%d, y+%d):", s, corner, corner & 1, corner >> 1);
      for (float f : out) {
        uint32_t b;
        memcpy(&b, &f, 4);
        printf(" %08x", b);
      }
      printf("\n");
      cudaDestroyTextureObject(t);
      cudaFreeArray(a);
    }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
