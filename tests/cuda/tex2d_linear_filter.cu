// Linear filtering (cudaFilterModeLinear) of float textures, printed as hex
// floats: tex1D across a 4-texel array on a 1/64 grid, one texel interval on
// a 1/1024 grid (the weight is quantised to 1/256), tex2D over a 3x3 array
// on a 1/8 grid, normalized coordinates with wrap, mirror and border at the
// edges, border addressing with border colours and different modes in x
// and y, and a float2/float4 texture.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample1d(cudaTextureObject_t tex, const float* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, at[i]);
}

__global__ void sample2d(cudaTextureObject_t tex, const float2* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, at[i].x, at[i].y);
}

__global__ void sample2d4(cudaTextureObject_t tex, const float2* at, int n, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(tex, at[i].x, at[i].y);
}

__global__ void sample1d2(cudaTextureObject_t tex, const float* at, int n, float2* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float2>(tex, at[i]);
}

static cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureAddressMode mode, int normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t tex = 0;
  cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (err != cudaSuccess) printf("create failed: %d\n", (int)err);
  return tex;
}

static void print_rows(const char* label, const float* v, int n) {
  printf("%s:\n", label);
  for (int i = 0; i < n; ++i) {
    printf("%s%a", i % 8 == 0 ? "  " : " ", v[i]);
    if (i % 8 == 7 || i == n - 1) printf("\n");
  }
}

static void run1d(const char* label, cudaTextureObject_t tex, const float* at, int n) {
  float *d_at, *d_out;
  cudaMalloc(&d_at, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, at, n * sizeof(float), cudaMemcpyHostToDevice);
  sample1d<<<(n + 127) / 128, 128>>>(tex, d_at, n, d_out);
  float* out = new float[n];
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  print_rows(label, out, n);
  delete[] out;
  cudaFree(d_at);
  cudaFree(d_out);
}

int main() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  // 1D: four irregular texels.
  float line[4] = {1.0f / 3, 2.7182817f, -1.4142135f, 100.0f};
  cudaArray_t a1;
  cudaMallocArray(&a1, &desc, 4);
  cudaMemcpy2DToArray(a1, 0, 0, line, sizeof line, sizeof line, 1, cudaMemcpyHostToDevice);
  float at[1100];
  int n = 0;
  for (int k = -16; k <= 4 * 64 + 16; ++k) at[n++] = k / 64.0f;
  cudaTextureObject_t t1 = texture_of(a1, cudaAddressModeClamp, 0);
  run1d("tex1D clamp, x = k/64", t1, at, n);
  n = 0;
  for (int k = 0; k <= 1024; ++k) at[n++] = 1.5f + k / 1024.0f;
  run1d("tex1D clamp, x = 1.5 + k/1024", t1, at, n);
  cudaDestroyTextureObject(t1);
  // Normalized coordinates at both edges, each address mode.
  const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                           cudaAddressModeMirror, cudaAddressModeBorder};
  const char* names[4] = {"wrap", "clamp", "mirror", "border"};
  for (int m = 0; m < 4; ++m) {
    cudaTextureObject_t t = texture_of(a1, modes[m], 1);
    n = 0;
    for (int k = -40; k <= 40; ++k) at[n++] = k / 256.0f;
    for (int k = -40; k <= 40; ++k) at[n++] = 1.0f + k / 256.0f;
    for (int k = 0; k <= 24; ++k) at[n++] = -3.0f + k / 4.0f + 1.0f / 3;
    char label[64];
    snprintf(label, sizeof label, "tex1D %s normalized", names[m]);
    run1d(label, t, at, n);
    cudaDestroyTextureObject(t);
  }
  // Unnormalized border.
  {
    cudaTextureObject_t t = texture_of(a1, cudaAddressModeBorder, 0);
    n = 0;
    for (int k = -96; k <= 4 * 32 + 96; ++k) at[n++] = k / 32.0f;
    run1d("tex1D border texels, x = k/32", t, at, n);
    cudaDestroyTextureObject(t);
  }
  // 1D with different modes in x and y, and with a border colour: a 1D
  // texture filters as one row at y = 0, so the y mode matters.
  {
    const cudaTextureAddressMode xy[3][2] = {{cudaAddressModeBorder, cudaAddressModeClamp},
                                             {cudaAddressModeClamp, cudaAddressModeBorder},
                                             {cudaAddressModeBorder, cudaAddressModeBorder}};
    const char* labels[3] = {"tex1D x border, y clamp", "tex1D x clamp, y border",
                             "tex1D border, border colour 2.5"};
    for (int m = 0; m < 3; ++m) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = a1;
      cudaTextureDesc td = {};
      td.addressMode[0] = xy[m][0];
      td.addressMode[1] = xy[m][1];
      td.addressMode[2] = cudaAddressModeClamp;
      td.filterMode = cudaFilterModeLinear;
      if (m == 2) td.borderColor[0] = 2.5f;
      cudaTextureObject_t t;
      cudaCreateTextureObject(&t, &res, &td, nullptr);
      n = 0;
      for (int k = -24; k <= 4 * 16 + 24; ++k) at[n++] = k / 16.0f;
      run1d(labels[m], t, at, n);
      cudaDestroyTextureObject(t);
    }
  }
  // 2D: a 3x3 array.
  {
    float grid[3][3] = {{0.1f, -7.25f, 3.0f}, {1e-3f, 65504.0f, -0.333f}, {12.5f, 2.0f, 0.0f}};
    cudaArray_t a2;
    cudaMallocArray(&a2, &desc, 3, 3);
    cudaMemcpy2DToArray(a2, 0, 0, grid, sizeof grid[0], sizeof grid[0], 3, cudaMemcpyHostToDevice);
    cudaTextureObject_t t = texture_of(a2, cudaAddressModeClamp, 0);
    float2 p[700];
    int m = 0;
    for (int j = 0; j <= 24; ++j)
      for (int i = 0; i <= 24; ++i) p[m++] = make_float2(i / 8.0f, j / 8.0f);
    float2* d_p;
    float* d_out;
    cudaMalloc(&d_p, m * sizeof(float2));
    cudaMalloc(&d_out, m * sizeof(float));
    cudaMemcpy(d_p, p, m * sizeof(float2), cudaMemcpyHostToDevice);
    sample2d<<<(m + 127) / 128, 128>>>(t, d_p, m, d_out);
    float out[700];
    cudaMemcpy(out, d_out, m * sizeof(float), cudaMemcpyDeviceToHost);
    print_rows("tex2D clamp, (i/8, j/8) row by row", out, m);
    cudaDestroyTextureObject(t);
    // Border addressing, border colour 0 and -1.5, on a 1/4 grid past the edges.
    for (int c = 0; c < 2; ++c) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = a2;
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
      td.filterMode = cudaFilterModeLinear;
      td.borderColor[0] = c ? -1.5f : 0.0f;
      cudaTextureObject_t tb;
      cudaCreateTextureObject(&tb, &res, &td, nullptr);
      m = 0;
      for (int j = -4; j <= 16; ++j)
        for (int i = -4; i <= 16; ++i) p[m++] = make_float2(i / 4.0f, j / 4.0f);
      cudaMemcpy(d_p, p, m * sizeof(float2), cudaMemcpyHostToDevice);
      sample2d<<<(m + 127) / 128, 128>>>(tb, d_p, m, d_out);
      cudaMemcpy(out, d_out, m * sizeof(float), cudaMemcpyDeviceToHost);
      print_rows(c ? "tex2D border colour -1.5, (i/4, j/4)" : "tex2D border, (i/4, j/4)", out, m);
      cudaDestroyTextureObject(tb);
    }
    // Normalized wrap around the corner.
    t = texture_of(a2, cudaAddressModeWrap, 1);
    m = 0;
    for (int j = -4; j <= 4; ++j)
      for (int i = -4; i <= 4; ++i) p[m++] = make_float2(i / 24.0f, 1.0f + j / 24.0f);
    cudaMemcpy(d_p, p, m * sizeof(float2), cudaMemcpyHostToDevice);
    sample2d<<<(m + 127) / 128, 128>>>(t, d_p, m, d_out);
    cudaMemcpy(out, d_out, m * sizeof(float), cudaMemcpyDeviceToHost);
    print_rows("tex2D wrap normalized around (0, 1)", out, m);
    cudaDestroyTextureObject(t);
    cudaFree(d_p);
    cudaFree(d_out);
    cudaFreeArray(a2);
  }
  // float4 2D and float2 1D textures.
  {
    float4 q[2][2] = {{{0, 1, 2, 3}, {4, 5, 6, 7}}, {{-8, 0.5f, 1e10f, 3.14159f}, {9, -9, 0.75f, 1}}};
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a4;
    cudaMallocArray(&a4, &d4, 2, 2);
    cudaMemcpy2DToArray(a4, 0, 0, q, sizeof q[0], sizeof q[0], 2, cudaMemcpyHostToDevice);
    cudaTextureObject_t t = texture_of(a4, cudaAddressModeClamp, 0);
    float2 p[9];
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) p[3 * j + i] = make_float2(0.5f + i * 0.3f, 0.5f + j * 0.45f);
    float2* d_p;
    float4* d_out;
    cudaMalloc(&d_p, sizeof p);
    cudaMalloc(&d_out, 9 * sizeof(float4));
    cudaMemcpy(d_p, p, sizeof p, cudaMemcpyHostToDevice);
    sample2d4<<<1, 32>>>(t, d_p, 9, d_out);
    float4 out[9];
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    printf("tex2D float4:\n");
    for (int i = 0; i < 9; ++i) printf("  %a %a %a %a\n", out[i].x, out[i].y, out[i].z, out[i].w);
    cudaDestroyTextureObject(t);
    cudaFree(d_p);
    cudaFree(d_out);
    cudaFreeArray(a4);
    float2 l2[3] = {{1, -1}, {0.1f, 10}, {-3, 1e-5f}};
    cudaChannelFormatDesc d2 = cudaCreateChannelDesc<float2>();
    cudaArray_t b;
    cudaMallocArray(&b, &d2, 3);
    cudaMemcpy2DToArray(b, 0, 0, l2, sizeof l2, sizeof l2, 1, cudaMemcpyHostToDevice);
    t = texture_of(b, cudaAddressModeClamp, 0);
    float xs[7] = {0, 0.6f, 1.1f, 1.7f, 2.2f, 2.9f, 3.4f};
    float* d_x;
    float2* d_o2;
    cudaMalloc(&d_x, sizeof xs);
    cudaMalloc(&d_o2, 7 * sizeof(float2));
    cudaMemcpy(d_x, xs, sizeof xs, cudaMemcpyHostToDevice);
    sample1d2<<<1, 32>>>(t, d_x, 7, d_o2);
    float2 o2[7];
    cudaMemcpy(o2, d_o2, sizeof o2, cudaMemcpyDeviceToHost);
    printf("tex1D float2:");
    for (int i = 0; i < 7; ++i) printf(" (%a %a)", o2[i].x, o2[i].y);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(d_x);
    cudaFree(d_o2);
    cudaFreeArray(b);
  }
  cudaFreeArray(a1);
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
