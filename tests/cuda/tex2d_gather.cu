// tex2Dgather: the component `comp` of the four texels bilinear filtering
// would use, from 2D arrays made with cudaArrayTextureGather. A 5x4 array of
// float texels worth 10 * row + column, gathered on a 1/4 grid around and past
// its edges with clamp, border, wrap and mirror addressing (the last two on
// normalized coordinates), with point and linear filter modes; a uchar4 array
// gathered as normalized floats and as elements, each of its four components;
// a float2 array's second component; a short2 array's first (border colour 0:
// the emulator refuses another on integer texels). One line per
// fetch: the coordinates, then the four results (x y z w).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kW = 5, kH = 4;

template <class T>
__global__ void gather(cudaTextureObject_t tex, const float2* at, int n, int comp, T* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<T>(tex, at[i].x, at[i].y, comp);
}

cudaArray_t array_of(const cudaChannelFormatDesc& desc, const void* texels, size_t texel_bytes) {
  cudaArray_t a;
  cudaError_t err = cudaMallocArray(&a, &desc, kW, kH, cudaArrayTextureGather);
  if (err != cudaSuccess) printf("cudaMallocArray: %s\n", cudaGetErrorString(err));
  cudaMemcpy2DToArray(a, 0, 0, texels, kW * texel_bytes, kW * texel_bytes, kH,
                      cudaMemcpyHostToDevice);
  return a;
}

cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureAddressMode mode, int normalized,
                               cudaTextureFilterMode filter, cudaTextureReadMode read,
                               float border = 0.0f) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalized;
  td.borderColor[0] = border;
  cudaTextureObject_t tex = 0;
  cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (err != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorString(err));
  return tex;
}

// The fetch points: (x, y) on a 1/4 grid from -1 to 6 (x) and -1 to 5 (y),
// in texels, or divided by the size for normalized coordinates.
int points(float2* at, int normalized) {
  int n = 0;
  for (int j = -4; j <= 20; j += 3)
    for (int i = -4; i <= 24; i += 3) {
      at[n].x = i / 4.0f / (normalized ? kW : 1);
      at[n].y = j / 4.0f / (normalized ? kH : 1);
      ++n;
    }
  return n;
}

template <class T, class Print>
void run(const char* label, cudaTextureObject_t tex, int normalized, int comp, Print print) {
  static float2 at[512];
  const int n = points(at, normalized);
  float2* d_at;
  T* d_out;
  cudaMalloc(&d_at, n * sizeof(float2));
  cudaMalloc(&d_out, n * sizeof(T));
  cudaMemcpy(d_at, at, n * sizeof(float2), cudaMemcpyHostToDevice);
  gather<T><<<(n + 63) / 64, 64>>>(tex, d_at, n, comp, d_out);
  static T out[512];
  cudaError_t err = cudaMemcpy(out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost);
  printf("%s, comp %d: %s\n", label, comp, cudaGetErrorString(err));
  for (int i = 0; i < n; ++i) {
    printf("  (%g, %g)", at[i].x, at[i].y);
    print(out[i]);
    printf("\n");
  }
  cudaFree(d_at);
  cudaFree(d_out);
}

int main() {
  float f[kH][kW];
  uchar4 c[kH][kW];
  float2 f2[kH][kW];
  short2 s2[kH][kW];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      f[y][x] = 10.0f * y + x;
      c[y][x] = make_uchar4(16 * y + x, 255 - x, 3 * y, 128 + 17 * x);
      f2[y][x] = make_float2(-x, 0.5f * y + 0.25f * x);
      s2[y][x] = make_short2(-1000 * y + x, 7);
    }
  cudaArray_t af = array_of(cudaCreateChannelDesc<float>(), f, sizeof(float));
  cudaArray_t ac = array_of(cudaCreateChannelDesc<uchar4>(), c, sizeof(uchar4));
  cudaArray_t af2 = array_of(cudaCreateChannelDesc<float2>(), f2, sizeof(float2));
  cudaArray_t as2 = array_of(cudaCreateChannelDesc<short2>(), s2, sizeof(short2));
  auto floats = [](float4 v) { printf(" %g %g %g %g", v.x, v.y, v.z, v.w); };
  auto bits = [](float4 v) {
    unsigned u[4];
    memcpy(u, &v, sizeof u);
    printf(" %08x %08x %08x %08x", u[0], u[1], u[2], u[3]);
  };
  auto bytes = [](uchar4 v) { printf(" %d %d %d %d", v.x, v.y, v.z, v.w); };
  auto shorts = [](short4 v) { printf(" %d %d %d %d", v.x, v.y, v.z, v.w); };
  const cudaTextureReadMode element = cudaReadModeElementType;
  run<float4>("float, clamp, point", texture_of(af, cudaAddressModeClamp, 0, cudaFilterModePoint, element), 0, 0, floats);
  run<float4>("float, border, linear", texture_of(af, cudaAddressModeBorder, 0, cudaFilterModeLinear, element, 7.0f), 0, 0, floats);
  run<float4>("float, wrap, normalized", texture_of(af, cudaAddressModeWrap, 1, cudaFilterModePoint, element), 1, 0, floats);
  run<float4>("float, mirror, normalized", texture_of(af, cudaAddressModeMirror, 1, cudaFilterModePoint, element), 1, 0, floats);
  for (int comp = 0; comp < 4; ++comp)
    run<float4>("uchar4 as normalized floats, clamp", texture_of(ac, cudaAddressModeClamp, 0, cudaFilterModePoint, cudaReadModeNormalizedFloat), 0, comp, bits);
  for (int comp = 0; comp < 4; ++comp)
    run<uchar4>("uchar4 as elements, clamp", texture_of(ac, cudaAddressModeClamp, 0, cudaFilterModePoint, element), 0, comp, bytes);
  run<float4>("float2, clamp", texture_of(af2, cudaAddressModeClamp, 0, cudaFilterModePoint, element), 0, 1, floats);
  run<short4>("short2, border", texture_of(as2, cudaAddressModeBorder, 0, cudaFilterModePoint, element), 0, 0, shorts);
  return 0;
}
