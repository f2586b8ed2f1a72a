// Trilinear filtering of 3D textures of unsigned 8-bit and 8/16-bit integer
// texels read as normalized floats (tex3D<float> with cudaFilterModeLinear
// and cudaReadModeNormalizedFloat): uchar, ushort, short, extremes included,
// uchar4 and ushort2, then normalized coordinates with wrap, mirror, border
// and clamp, printed as float bit patterns from the host.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static uint64_t s = 0xa54ff53a5f1d36f1ull;
static uint32_t rnd() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
static float unif() { return (rnd() & 0xffffff) / 16777216.0f; }

template <typename R>
__global__ void sample3d(cudaTextureObject_t tex, const float4* at, int n, R* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<R>(tex, at[i].x, at[i].y, at[i].z);
}

template <typename T>
static cudaTextureObject_t make(const T* host, int W, int H, int D,
                                cudaTextureAddressMode mode = cudaAddressModeClamp, int normalized = 0) {
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
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.normalizedCoords = normalized;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex;
  cudaError_t e = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %d\n", (int)e);
  return tex;
}

template <typename R>
static std::vector<R> run(cudaTextureObject_t t, const std::vector<float4>& at) {
  int n = at.size();
  float4* d_at;
  R* d_out;
  cudaMalloc(&d_at, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(R));
  cudaMemcpy(d_at, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample3d<R><<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
  std::vector<R> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(R), cudaMemcpyDeviceToHost);
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

int main() {
  const int W = 5, H = 4, D = 3, NT = W * H * D;
  std::vector<float4> at;
  for (int i = 0; i < 96; ++i) at.push_back(make_float4(0.5f + unif(), 0.5f + unif(), 0.5f + unif(), 0));  // the extremes' cube
  for (int i = 0; i < 600; ++i)
    at.push_back(make_float4(-0.3f + unif() * (W + 0.6f), -0.3f + unif() * (H + 0.6f), -0.3f + unif() * (D + 0.6f), 0));
  {
    std::vector<unsigned char> h(NT);
    for (auto& v : h) v = rnd();
    h[0] = 255; h[1] = 255; h[W] = 255; h[W + 1] = 255; h[W * H] = 0; h[W * H + 1] = 255;
    print("unsigned char", run<float>(make(h.data(), W, H, D), at).data(), at.size());
  }
  {
    std::vector<unsigned short> h(NT);
    for (auto& v : h) v = rnd();
    h[0] = 65535; h[1] = 65535; h[W] = 0; h[W + 1] = 65535; h[W * H] = 65535; h[W * H + 1] = 1;
    print("unsigned short", run<float>(make(h.data(), W, H, D), at).data(), at.size());
  }
  {
    std::vector<short> h(NT);
    for (auto& v : h) v = (short)rnd();
    h[0] = -32768; h[1] = -32768; h[W] = -32767; h[W + 1] = 32767; h[W * H] = -32768; h[W * H + 1] = -1;
    print("short", run<float>(make(h.data(), W, H, D), at).data(), at.size());
  }
  {
    std::vector<uchar4> h(NT);
    for (auto& v : h) v = make_uchar4(rnd(), rnd(), rnd(), rnd());
    std::vector<float4> o = run<float4>(make(h.data(), W, H, D), at);
    print("uchar4", reinterpret_cast<const float*>(o.data()), 4 * 200);
  }
  {
    std::vector<ushort2> h(NT);
    for (auto& v : h) v = make_ushort2(rnd(), rnd());
    std::vector<float2> o = run<float2>(make(h.data(), W, H, D), at);
    print("ushort2", reinterpret_cast<const float*>(o.data()), 2 * 200);
  }
  {
    std::vector<unsigned short> h(NT);
    for (auto& v : h) v = rnd();
    std::vector<float4> nat;
    for (int i = 0; i < 400; ++i) nat.push_back(make_float4(-0.3f + 1.6f * unif(), -0.3f + 1.6f * unif(), -0.3f + 1.6f * unif(), 0));
    const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeBorder,
                                             cudaAddressModeClamp};
    const char* names[4] = {"ushort normalized, wrap", "ushort normalized, mirror", "ushort normalized, border",
                            "ushort normalized, clamp"};
    for (int m = 0; m < 4; ++m) print(names[m], run<float>(make(h.data(), W, H, D, modes[m], 1), nat).data(), nat.size());
    // Unnormalized coordinates with the other modes (the H200 clamps them).
    print("ushort unnormalized, wrap", run<float>(make(h.data(), W, H, D, cudaAddressModeWrap, 0), at).data(), at.size());
    print("ushort unnormalized, border", run<float>(make(h.data(), W, H, D, cudaAddressModeBorder, 0), at).data(), at.size());
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
