// cudaReadModeNormalizedFloat on 8- and 16-bit, signed and unsigned 1D
// arrays (uchar, char, ushort, short, uchar4, short2): point reads at texel
// centres and linear filtering between texels (not for char: see
// tex_char_linear.cu), 2D bilinear filtering of uchar4 and ushort arrays, a
// 1D border-addressed uchar array, printed as hex floats; an integer
// texture read as its element type; and which descriptions the runtime
// rejects (linear filtering of integer element reads).
#include <cstdio>
#include <cuda_runtime.h>

template <class R>
__global__ void sample(cudaTextureObject_t tex, const float* at, int n, R* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<R>(tex, at[i]);
}

template <class R>
__global__ void sample2d(cudaTextureObject_t tex, const float2* at, int n, R* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<R>(tex, at[i].x, at[i].y);
}

template <class T>
static cudaArray_t array_of(const T* values, int n) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  cudaMallocArray(&a, &desc, n);
  cudaMemcpy2DToArray(a, 0, 0, values, n * sizeof(T), n * sizeof(T), 1, cudaMemcpyHostToDevice);
  return a;
}

static cudaError_t texture_of(cudaArray_t a, cudaTextureFilterMode filter, cudaTextureReadMode read,
                              cudaTextureObject_t* tex) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = read;
  return cudaCreateTextureObject(tex, &res, &td, nullptr);
}

static float at[512];

// Texel centres, then points between texels k and k+1 at weights 1/8 .. 7/8 and 1/256.
static int coordinates(int texels) {
  int n = 0;
  for (int k = 0; k < texels; ++k) at[n++] = k + 0.5f;
  for (int k = 0; k + 1 < texels; ++k) {
    for (int w = 1; w < 8; w += 3) at[n++] = k + 0.5f + w / 8.0f;
    at[n++] = k + 0.5f + 1 / 256.0f;
    at[n++] = k + 0.5f + 255 / 256.0f;
  }
  return n;
}

template <class R>
static void fetch(cudaTextureObject_t tex, int n, R* out) {
  float* d_at;
  R* d_out;
  cudaMalloc(&d_at, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(R));
  cudaMemcpy(d_at, at, n * sizeof(float), cudaMemcpyHostToDevice);
  sample<R><<<(n + 127) / 128, 128>>>(tex, d_at, n, d_out);
  cudaMemcpy(out, d_out, n * sizeof(R), cudaMemcpyDeviceToHost);
  cudaFree(d_at);
  cudaFree(d_out);
}

template <class T>
static void scalar(const char* name, const T* values, int texels, bool filtered = true) {
  cudaArray_t a = array_of(values, texels);
  for (int linear = 0; linear < (filtered ? 2 : 1); ++linear) {
    cudaTextureObject_t tex;
    cudaError_t err = texture_of(a, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                 cudaReadModeNormalizedFloat, &tex);
    int n = coordinates(texels);
    if (!linear) n = texels;
    static float out[512];
    fetch<float>(tex, n, out);
    printf("%s %s (create %d):\n", name, linear ? "linear" : "point", (int)err);
    for (int i = 0; i < n; ++i) {
      printf("%s%a", i % 8 == 0 ? "  " : " ", out[i]);
      if (i % 8 == 7 || i == n - 1) printf("\n");
    }
    cudaDestroyTextureObject(tex);
  }
  cudaFreeArray(a);
}

int main() {
  unsigned char u8[10] = {0, 1, 2, 3, 85, 127, 128, 170, 254, 255};
  signed char s8[10] = {-128, -127, -126, -64, -1, 0, 1, 63, 126, 127};
  unsigned short u16[10] = {0, 1, 2, 255, 256, 32767, 32768, 43690, 65534, 65535};
  short s16[10] = {-32768, -32767, -32766, -256, -1, 0, 1, 255, 32766, 32767};
  scalar("uchar", u8, 10);
  // (Linear filtering of signed 8-bit texels: tex_char_linear.cu.)
  scalar("char", s8, 10, false);
  scalar("ushort", u16, 10);
  scalar("short", s16, 10);
  // Vector texels: every channel is read the same way.
  {
    uchar4 v[3] = {{0, 64, 128, 255}, {255, 1, 129, 3}, {17, 34, 51, 68}};
    cudaArray_t a = array_of(v, 3);
    cudaTextureObject_t tex;
    cudaError_t err = texture_of(a, cudaFilterModeLinear, cudaReadModeNormalizedFloat, &tex);
    int n = coordinates(3);
    static float4 out[64];
    fetch<float4>(tex, n, out);
    printf("uchar4 linear (create %d):\n", (int)err);
    for (int i = 0; i < n; ++i) printf("  %a %a %a %a\n", out[i].x, out[i].y, out[i].z, out[i].w);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  {
    short2 v[3] = {{-32768, 32767}, {1000, -1000}, {0, 12345}};
    cudaArray_t a = array_of(v, 3);
    cudaTextureObject_t tex;
    cudaError_t err = texture_of(a, cudaFilterModeLinear, cudaReadModeNormalizedFloat, &tex);
    int n = coordinates(3);
    static float2 out[64];
    fetch<float2>(tex, n, out);
    printf("short2 linear (create %d):\n", (int)err);
    for (int i = 0; i < n; ++i) printf("  %a %a\n", out[i].x, out[i].y);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  // 2D: uchar4 and ushort 3x3 arrays, bilinear on a 1/8 grid (clamp), and
  // a 1D uchar array with border addressing.
  {
    uchar4 v[3][3] = {{{0, 255, 17, 200}, {255, 0, 99, 1}, {128, 127, 3, 250}},
                      {{9, 90, 190, 254}, {1, 2, 4, 8}, {16, 32, 64, 128}},
                      {{77, 177, 7, 70}, {200, 100, 50, 25}, {12, 34, 56, 78}}};
    unsigned short u[3][3] = {{0, 65535, 12345}, {54321, 1, 40000}, {32768, 32767, 999}};
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<uchar4>();
    cudaChannelFormatDesc d16 = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t a4, a16;
    cudaMallocArray(&a4, &d4, 3, 3);
    cudaMallocArray(&a16, &d16, 3, 3);
    cudaMemcpy2DToArray(a4, 0, 0, v, sizeof v[0], sizeof v[0], 3, cudaMemcpyHostToDevice);
    cudaMemcpy2DToArray(a16, 0, 0, u, sizeof u[0], sizeof u[0], 3, cudaMemcpyHostToDevice);
    cudaTextureObject_t t4, t16;
    cudaError_t e4 = texture_of(a4, cudaFilterModeLinear, cudaReadModeNormalizedFloat, &t4);
    cudaError_t e16 = texture_of(a16, cudaFilterModeLinear, cudaReadModeNormalizedFloat, &t16);
    static float2 p[400];
    int n = 0;
    for (int j = 0; j <= 16; ++j)
      for (int i = 0; i <= 16; ++i) p[n++] = make_float2(0.5f + i / 8.0f + 1 / 64.0f, 0.5f + j / 8.0f + 3 / 128.0f);
    float2* d_p;
    float4* d_o4;
    float* d_o;
    cudaMalloc(&d_p, n * sizeof(float2));
    cudaMalloc(&d_o4, n * sizeof(float4));
    cudaMalloc(&d_o, n * sizeof(float));
    cudaMemcpy(d_p, p, n * sizeof(float2), cudaMemcpyHostToDevice);
    sample2d<float4><<<(n + 127) / 128, 128>>>(t4, d_p, n, d_o4);
    sample2d<float><<<(n + 127) / 128, 128>>>(t16, d_p, n, d_o);
    static float4 o4[400];
    static float o[400];
    cudaMemcpy(o4, d_o4, n * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaMemcpy(o, d_o, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("uchar4 2D linear (create %d):\n", (int)e4);
    for (int i = 0; i < n; ++i) printf("  %a %a %a %a\n", o4[i].x, o4[i].y, o4[i].z, o4[i].w);
    printf("ushort 2D linear (create %d):\n", (int)e16);
    for (int i = 0; i < n; ++i) {
      printf("%s%a", i % 8 == 0 ? "  " : " ", o[i]);
      if (i % 8 == 7 || i == n - 1) printf("\n");
    }
    cudaDestroyTextureObject(t4);
    cudaDestroyTextureObject(t16);
    cudaFreeArray(a4);
    cudaFreeArray(a16);
    cudaFree(d_p);
    cudaFree(d_o4);
    cudaFree(d_o);
    cudaArray_t a1 = array_of(u8, 10);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a1;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tb;
    cudaError_t eb = cudaCreateTextureObject(&tb, &res, &td, nullptr);
    n = 0;
    for (int k = -12; k <= 10 * 8 + 12; ++k) at[n++] = k / 8.0f;
    static float ob[128];
    fetch<float>(tb, n, ob);
    printf("uchar 1D border linear (create %d):\n", (int)eb);
    for (int i = 0; i < n; ++i) {
      printf("%s%a", i % 8 == 0 ? "  " : " ", ob[i]);
      if (i % 8 == 7 || i == n - 1) printf("\n");
    }
    cudaDestroyTextureObject(tb);
    cudaFreeArray(a1);
  }
  // Element-type reads of integer texels.
  {
    cudaArray_t a = array_of(s16, 10);
    cudaTextureObject_t tex;
    cudaError_t err = texture_of(a, cudaFilterModePoint, cudaReadModeElementType, &tex);
    int n = coordinates(10);
    static short out[512];
    fetch<short>(tex, n, out);
    printf("short element point (create %d):", (int)err);
    for (int i = 0; i < n; ++i) printf(" %d", out[i]);
    printf("\n");
    cudaDestroyTextureObject(tex);
    err = texture_of(a, cudaFilterModeLinear, cudaReadModeElementType, &tex);
    printf("short element linear: create %d\n", (int)err);
    cudaGetLastError();
    if (err == cudaSuccess) cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  {
    int v[4] = {-5, 7, 1 << 30, -(1 << 30)};
    cudaArray_t a = array_of(v, 4);
    cudaTextureObject_t tex;
    cudaError_t err = texture_of(a, cudaFilterModePoint, cudaReadModeNormalizedFloat, &tex);
    printf("int normalized: create %d\n", (int)err);
    cudaGetLastError();
    if (err == cudaSuccess) cudaDestroyTextureObject(tex);
    err = texture_of(a, cudaFilterModeLinear, cudaReadModeElementType, &tex);
    printf("int element linear: create %d\n", (int)err);
    cudaGetLastError();
    if (err == cudaSuccess) cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
