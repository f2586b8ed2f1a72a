// Linear filtering of float textures whose texels are infinite, NaN or
// subnormal, and filtering whose exact result is subnormal: 1D (two texels),
// 2D (2x2) and 3D (2x2x2) cudaArrays, unnormalized coordinates, clamp, the
// fetched values' bits printed from the host. The special texel's weight is
// 0, 1/256, 1/2, 255/256 or 1.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static float bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

__global__ void fetch1(cudaTextureObject_t t, const float* x, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x[i]);
}
__global__ void fetch2(cudaTextureObject_t t, const float2* x, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, x[i].x, x[i].y);
}
__global__ void fetch3(cudaTextureObject_t t, const float4* x, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, x[i].x, x[i].y, x[i].z);
}

static cudaTextureObject_t texture(const std::vector<float>& v, int w, int h, int d) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h == 1 && d == 1 ? 0 : h, d == 1 ? 0 : d));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void*)v.data(), w * 4, w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

template <class C>
static std::vector<float> run(void (*k)(cudaTextureObject_t, const C*, int, float*), cudaTextureObject_t t,
                              const std::vector<C>& at) {
  C* dx;
  float* dout;
  int n = at.size();
  cudaMalloc(&dx, n * sizeof(C));
  cudaMalloc(&dout, n * 4);
  cudaMemcpy(dx, at.data(), n * sizeof(C), cudaMemcpyHostToDevice);
  k<<<1, 64>>>(t, dx, n, dout);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  return out;
}

static void print(const char* what, const std::vector<float>& v) {
  printf("%-40s", what);
  for (float f : v) {
    uint32_t b;
    memcpy(&b, &f, 4);
    printf(" %08x", b);
  }
  printf("\n");
}

int main() {
  const uint32_t special[] = {0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345,
                              0x00000001, 0x007fffff, 0x80400000, 0x00800000, 0x80800000, 0x00000000};
  // x - 0.5 = 0, 1/256, 1/2, 255/256, 1: the weight of texel 1.
  const std::vector<float> x1 = {0.5f, 0.5f + 1 / 256.0f, 1.0f, 1.5f - 1 / 256.0f, 1.5f};
  // 1D: [special, 1.5] and [1.5, special].
  for (uint32_t s : special) {
    char what[64];
    snprintf(what, sizeof what, "1d %08x 1.5", s);
    print(what, run(fetch1, texture({bits(s), 1.5f}, 2, 1, 1), x1));
    snprintf(what, sizeof what, "1d 1.5 %08x", s);
    print(what, run(fetch1, texture({1.5f, bits(s)}, 2, 1, 1), x1));
  }
  // 1D pairs of specials, and pairs whose filtered value is subnormal.
  const uint32_t pairs[][2] = {{0x7f800000, 0xff800000}, {0x7f800000, 0x7f800000}, {0x7fc00000, 0x7f800000},
                               {0xff800000, 0x7fc12345}, {0x00000001, 0x00000003}, {0x00400000, 0x80200000},
                               {0x00800000, 0x80000000}, {0x00c00000, 0x00000000}, {0x00800000, 0x807fffff},
                               {0x00800001, 0x80800000}, {0x01000000, 0x00000000}, {0x3f800000, 0x00000001}};
  for (auto& p : pairs) {
    char what[64];
    snprintf(what, sizeof what, "1d %08x %08x", p[0], p[1]);
    print(what, run(fetch1, texture({bits(p[0]), bits(p[1])}, 2, 1, 1), x1));
  }
  // 2D: the special texel at (0, 0), the others 1.5, 2.5, -0.75.
  std::vector<float2> x2;
  for (float y : {0.5f, 1.0f, 1.5f})
    for (float x : x1) x2.push_back(make_float2(x, y));
  for (uint32_t s : special) {
    char what[64];
    snprintf(what, sizeof what, "2d %08x", s);
    print(what, run(fetch2, texture({bits(s), 1.5f, 2.5f, -0.75f}, 2, 2, 1), x2));
  }
  // 3D: the special texel at (0, 0, 0) or (1, 1, 1), the others 1.5 ... 
  std::vector<float4> x3;
  for (float z : {0.5f, 1.0f, 1.5f - 1 / 256.0f, 1.5f})
    for (float x : {0.5f, 1.0f, 1.5f}) x3.push_back(make_float4(x, 1.0f, z, 0));
  for (uint32_t s : special)
    for (int at : {0, 7}) {
      std::vector<float> v = {1.5f, 2.5f, -0.75f, 3.0f, 0.25f, -1.25f, 5.0f, 0.5f};
      v[at] = bits(s);
      char what[64];
      snprintf(what, sizeof what, "3d %08x at %d", s, at);
      print(what, run(fetch3, texture(v, 2, 2, 2), x3));
    }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
