// Point sampling of a 5x3 float cudaArray through tex2D with every address
// mode (clamp, wrap, mirror, border with a zero and a non-zero border
// colour), unnormalized and normalized coordinates, sweeping x and y past
// both edges; plus tex1D on a 1D array and tex2D on pitched linear memory.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample2d(cudaTextureObject_t tex, const float2* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, at[i].x, at[i].y);
}

__global__ void sample1d(cudaTextureObject_t tex, const float2* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, at[i].x);
}

static const int W = 5, H = 3;
static float2 coords[256];
static float results[256];

static int sweep(bool normalized) {
  int n = 0;
  // x across the row y = 1 (texel centre), then y across the column x = 2.
  for (int k = -14; k <= 24; ++k) {
    float x = k * 0.5f;
    coords[n++] = normalized ? make_float2(x / W, 1.5f / H) : make_float2(x, 1.5f);
  }
  for (int k = -10; k <= 16; ++k) {
    float y = k * 0.5f;
    coords[n++] = normalized ? make_float2(2.5f / W, y / H) : make_float2(2.5f, y);
  }
  // Exact binary fractions of the normalized range.
  if (normalized) {
    for (int k = -24; k <= 40; ++k) coords[n++] = make_float2(k / 16.0f, 0.5f);
  }
  return n;
}

static void run(const char* label, cudaTextureObject_t tex, int n, bool one_d) {
  float2* d_at;
  float* d_out;
  cudaMalloc(&d_at, n * sizeof(float2));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, coords, n * sizeof(float2), cudaMemcpyHostToDevice);
  if (one_d) {
    sample1d<<<(n + 63) / 64, 64>>>(tex, d_at, n, d_out);
  } else {
    sample2d<<<(n + 63) / 64, 64>>>(tex, d_at, n, d_out);
  }
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(results, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s (launch %d sync %d):", label, (int)launch, (int)sync);
  for (int i = 0; i < n; ++i) printf(" %g", results[i]);
  printf("\n");
  cudaFree(d_at);
  cudaFree(d_out);
}

int main() {
  float host[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) host[y][x] = 10 * y + x + 1;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  printf("malloc array %d\n", (int)cudaMallocArray(&array, &desc, W, H));
  printf("copy to array %d\n", (int)cudaMemcpy2DToArray(array, 0, 0, host, W * sizeof(float),
                                                         W * sizeof(float), H,
                                                         cudaMemcpyHostToDevice));
  const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                           cudaAddressModeMirror, cudaAddressModeBorder};
  const char* names[4] = {"wrap", "clamp", "mirror", "border"};
  for (int normalized = 0; normalized < 2; ++normalized) {
    for (int m = 0; m < 5; ++m) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = array;
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = modes[m < 4 ? m : 3];
      td.filterMode = cudaFilterModePoint;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = normalized;
      if (m == 4) td.borderColor[0] = 7.5f;
      cudaTextureObject_t tex = 0;
      cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
      char label[64];
      snprintf(label, sizeof label, "%s%s %s create %d", m == 4 ? "border7.5" : names[m], "",
               normalized ? "normalized" : "texels", (int)err);
      if (err != cudaSuccess) {
        printf("%s\n", label);
        cudaGetLastError();
        continue;
      }
      run(label, tex, sweep(normalized), false);
      cudaDestroyTextureObject(tex);
    }
  }
  // Different modes per dimension: wrap in x, clamp in y, normalized.
  {
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeWrap;
    td.addressMode[1] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex = 0;
    cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
    char label[64];
    snprintf(label, sizeof label, "wrap/clamp normalized create %d", (int)err);
    run(label, tex, sweep(true), false);
    cudaDestroyTextureObject(tex);
  }
  // 1D array, tex1D, clamp and border, texels.
  {
    float line[7] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};
    cudaArray_t a1;
    printf("malloc 1d array %d\n", (int)cudaMallocArray(&a1, &desc, 7));
    printf("copy 1d %d\n", (int)cudaMemcpy2DToArray(a1, 0, 0, line, sizeof line, sizeof line, 1,
                                                   cudaMemcpyHostToDevice));
    for (int m = 0; m < 4; ++m) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = a1;
      cudaTextureDesc td = {};
      td.addressMode[0] = modes[m];
      td.normalizedCoords = 1;
      cudaTextureObject_t tex = 0;
      cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
      int n = 0;
      for (int k = -20; k <= 36; ++k) coords[n++] = make_float2(k / 14.0f, 0);
      char label[64];
      snprintf(label, sizeof label, "1d %s normalized create %d", names[m], (int)err);
      run(label, tex, n, true);
      cudaDestroyTextureObject(tex);
    }
    cudaFreeArray(a1);
  }
  // Pitched linear memory (cudaMallocPitch), tex2D, clamp, texels.
  {
    float* pitched;
    size_t pitch;
    printf("malloc pitch %d\n", (int)cudaMallocPitch(&pitched, &pitch, W * sizeof(float), H));
    cudaMemcpy2D(pitched, pitch, host, W * sizeof(float), W * sizeof(float), H,
                 cudaMemcpyHostToDevice);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = pitched;
    res.res.pitch2D.desc = desc;
    res.res.pitch2D.width = W;
    res.res.pitch2D.height = H;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tex = 0;
    cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
    char label[64];
    snprintf(label, sizeof label, "pitch2d clamp texels create %d", (int)err);
    run(label, tex, sweep(false), false);
    cudaDestroyTextureObject(tex);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
    snprintf(label, sizeof label, "pitch2d border texels create %d", (int)err);
    run(label, tex, sweep(false), false);
    cudaDestroyTextureObject(tex);
    res.res.pitch2D.pitchInBytes = W * sizeof(float);
    printf("pitch2d with an unaligned pitch: %d\n",
           (int)cudaCreateTextureObject(&tex, &res, &td, nullptr));
    cudaGetLastError();
    cudaFree(pitched);
  }
  printf("free array %d\n", (int)cudaFreeArray(array));
  return 0;
}
