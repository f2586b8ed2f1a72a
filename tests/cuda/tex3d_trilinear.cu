// Trilinear filtering of float 3D textures (tex3D with cudaFilterModeLinear),
// printed as float bit patterns from the host: the weights (one-hot 2x2x2
// textures), random texels with close and with widely spread exponents and
// mixed signs, normalized coordinates with wrap, mirror and border (colour
// 2.5) addressing, and float4 texels.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static uint64_t s = 0x6a09e667f3bcc909ull;
static uint32_t rnd() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
static float unif() { return (rnd() & 0xffffff) / 16777216.0f; }

template <typename T>
__global__ void sample3d(cudaTextureObject_t tex, const float4* at, int n, T* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<T>(tex, at[i].x, at[i].y, at[i].z);
}

template <typename T>
static cudaTextureObject_t make(const T* host, int W, int H, int D, cudaTextureDesc td) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void*)host, W * sizeof(T), W, H);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t tex;
  cudaError_t e = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %d\n", (int)e);
  return tex;
}

template <typename T>
static std::vector<T> run(cudaTextureObject_t t, const std::vector<float4>& at) {
  int n = at.size();
  float4* d_at;
  T* d_out;
  cudaMalloc(&d_at, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(T));
  cudaMemcpy(d_at, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample3d<T><<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
  std::vector<T> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d_at);
  cudaFree(d_out);
  return out;
}

static void print(const char* title, const float* v, size_t n) {
  printf("%s\n", title);
  for (size_t i = 0; i < n; ++i) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    printf("%08x%s", b, (i % 8 == 7 || i + 1 == n) ? "\n" : " ");
  }
}

static cudaTextureDesc clamp_desc() {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  return td;
}

int main() {
  // Weights: corner k (bit 0: x + 1, bit 1: y + 1, bit 2: z + 1) of a 2x2x2 texture.
  {
    std::vector<float4> at;
    for (int i = 0; i < 96; ++i) at.push_back(make_float4(0.5f + unif(), 0.5f + unif(), 0.5f + unif(), 0));
    const float f[6] = {0, 1 / 512.0f, 1 / 256.0f, 0.5f, 255 / 256.0f, 511 / 512.0f};
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) at.push_back(make_float4(0.5f + f[i], 0.5f + f[j], 0.5f + f[(i + j) % 6], 0));
    for (int k = 0; k < 8; ++k) {
      float h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      h[k] = 1.0f;
      std::vector<float> o = run<float>(make(h, 2, 2, 2, clamp_desc()), at);
      char title[32];
      snprintf(title, sizeof title, "weights corner %d", k);
      print(title, o.data(), o.size());
    }
  }
  const int W = 7, H = 6, D = 5, NT = W * H * D;
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<float> h(NT);
    for (int i = 0; i < NT; ++i) {
      float m = 1.0f + unif();
      int e = kind == 0 ? (int)(rnd() % 5) - 2 : kind == 1 ? (int)(rnd() % 61) - 30 : (int)(rnd() % 3);
      bool neg = kind == 2 ? (i & 1) : (rnd() & 1);
      if (kind == 2) m = 1.0f + unif() * 0.01f;
      h[i] = ldexpf(neg ? -m : m, e);
    }
    std::vector<float4> at;
    for (int i = 0; i < 800; ++i)
      at.push_back(make_float4(-0.3f + unif() * (W + 0.6f), -0.3f + unif() * (H + 0.6f), -0.3f + unif() * (D + 0.6f), 0));
    std::vector<float> o = run<float>(make(h.data(), W, H, D, clamp_desc()), at);
    const char* titles[3] = {"random texels, exponents -2..2, clamp", "random texels, exponents -30..30, clamp",
                             "alternating signs, near cancellation, clamp"};
    print(titles[kind], o.data(), o.size());
    if (kind != 0) continue;
    // The same texels through normalized coordinates and each address mode.
    const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeBorder,
                                             cudaAddressModeClamp};
    const char* names[4] = {"normalized, wrap", "normalized, mirror", "normalized, border 2.5", "normalized, clamp"};
    std::vector<float4> nat;
    for (int i = 0; i < 300; ++i) nat.push_back(make_float4(-0.3f + 1.6f * unif(), -0.3f + 1.6f * unif(), -0.3f + 1.6f * unif(), 0));
    for (int m = 0; m < 4; ++m) {
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = modes[m];
      td.normalizedCoords = 1;
      if (m == 2) td.borderColor[0] = 2.5f;
      std::vector<float> no = run<float>(make(h.data(), W, H, D, td), nat);
      print(names[m], no.data(), no.size());
    }
  }
  // float4 texels.
  {
    std::vector<float4> h(4 * 3 * 2);
    for (auto& v : h) v = make_float4(unif() * 8 - 4, unif() * 100, -unif(), ldexpf(1.0f + unif(), (int)(rnd() % 9) - 4));
    std::vector<float4> at;
    for (int i = 0; i < 100; ++i) at.push_back(make_float4(unif() * 4, unif() * 3, unif() * 2, 0));
    std::vector<float4> o = run<float4>(make(h.data(), 4, 3, 2, clamp_desc()), at);
    print("float4 texels", reinterpret_cast<const float*>(o.data()), 4 * o.size());
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
