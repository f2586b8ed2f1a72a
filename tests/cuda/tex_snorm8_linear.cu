// Linear filtering of signed 8-bit texels read as normalized floats
// (tex1D/tex2D<float> on char cudaArrays, cudaReadModeNormalizedFloat),
// printed as float bit patterns from the host: pairs of extremes at every
// 8-bit weight, random 1D and 2D samples, char4, border addressing (the
// border row of a 1D texture) and normalized wrap.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static uint64_t s = 0x3c6ef372fe94f82bull;
static uint32_t rnd() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
static float unif() { return (rnd() & 0xffffff) / 16777216.0f; }

template <typename R>
__global__ void sample1d(cudaTextureObject_t tex, const float2* at, int n, R* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<R>(tex, at[i].x);
}
template <typename R>
__global__ void sample2d(cudaTextureObject_t tex, const float2* at, int n, R* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<R>(tex, at[i].x, at[i].y);
}

template <typename T>
static cudaTextureObject_t make(const T* host, int W, int H, cudaTextureAddressMode mode, int normalized) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  cudaMallocArray(&a, &desc, W, H);
  cudaMemcpy2DToArray(a, 0, 0, host, W * sizeof(T), W * sizeof(T), H ? H : 1, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = normalized;
  cudaTextureObject_t tex;
  cudaError_t e = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %d\n", (int)e);
  return tex;
}

template <typename R>
static std::vector<R> run(bool two, cudaTextureObject_t t, const std::vector<float2>& at) {
  int n = at.size();
  float2* d_at;
  R* d_out;
  cudaMalloc(&d_at, n * sizeof(float2));
  cudaMalloc(&d_out, n * sizeof(R));
  cudaMemcpy(d_at, at.data(), n * sizeof(float2), cudaMemcpyHostToDevice);
  if (two) sample2d<R><<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
  else sample1d<R><<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
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
  // Neighbouring pairs (-128,-128) (-128,-127) (-127,-1) (-1,0) (0,1) (1,43) (43,126) (126,127) (127,-128).
  {
    signed char v[10] = {-128, -128, -127, -1, 0, 1, 43, 126, 127, -128};
    std::vector<float2> at;
    for (int i = 0; i < 9; ++i)
      for (int a = 0; a < 256; ++a) at.push_back(make_float2(i + 0.5f + a / 256.0f, 0));
    print("pairs at every weight", run<float>(false, make(v, 10, 0, cudaAddressModeClamp, 0), at).data(), at.size());
  }
  {
    std::vector<signed char> h(64);
    for (auto& v : h) v = (signed char)rnd();
    std::vector<float2> at;
    for (int i = 0; i < 400; ++i) at.push_back(make_float2(-0.5f + unif() * 65, 0));
    print("random 1D, clamp", run<float>(false, make(h.data(), 64, 0, cudaAddressModeClamp, 0), at).data(), at.size());
    print("random 1D, border", run<float>(false, make(h.data(), 64, 0, cudaAddressModeBorder, 0), at).data(), at.size());
    std::vector<float2> nat;
    for (int i = 0; i < 200; ++i) nat.push_back(make_float2(-0.5f + 2 * unif(), 0));
    print("random 1D, normalized wrap", run<float>(false, make(h.data(), 64, 0, cudaAddressModeWrap, 1), nat).data(), nat.size());
  }
  {
    const int W = 9, H = 7;
    std::vector<signed char> h(W * H);
    for (auto& v : h) v = (signed char)rnd();
    h[0] = -128; h[1] = -128; h[W] = -128; h[W + 1] = -127;
    std::vector<float2> at;
    for (int i = 0; i < 64; ++i) at.push_back(make_float2(0.5f + unif(), 0.5f + unif()));
    for (int i = 0; i < 700; ++i) at.push_back(make_float2(-0.3f + unif() * (W + 0.6f), -0.3f + unif() * (H + 0.6f)));
    print("random 2D, clamp", run<float>(true, make(h.data(), W, H, cudaAddressModeClamp, 0), at).data(), at.size());
    print("random 2D, border", run<float>(true, make(h.data(), W, H, cudaAddressModeBorder, 0), at).data(), at.size());
  }
  {
    const int W = 6, H = 5;
    std::vector<char4> h(W * H);
    for (auto& v : h) v = make_char4((signed char)rnd(), (signed char)rnd(), (signed char)rnd(), (signed char)rnd());
    std::vector<float2> at;
    for (int i = 0; i < 120; ++i) at.push_back(make_float2(unif() * W, unif() * H));
    std::vector<float4> o = run<float4>(true, make(h.data(), W, H, cudaAddressModeClamp, 0), at);
    print("char4 2D", reinterpret_cast<const float*>(o.data()), 4 * o.size());
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
