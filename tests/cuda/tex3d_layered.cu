// 3D and layered cudaArrays: cudaMalloc3DArray, cudaMemcpy3D in and out,
// cudaGetChannelDesc, tex3D (point; trilinear: tex3d_linear.cu), tex2DLayered and
// tex1DLayered (cudaArrayLayered: filtering stays inside one layer, the
// layer index is clamped as an unsigned number: -1 reads the last layer),
// and cudaCreateChannelDesc fields.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void sample3d(cudaTextureObject_t tex, const float4* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, at[i].x, at[i].y, at[i].z);
}

__global__ void sample2dlayered(cudaTextureObject_t tex, const float4* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(tex, at[i].x, at[i].y, (int)at[i].w);
}

__global__ void sample1dlayered(cudaTextureObject_t tex, const float4* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float>(tex, at[i].x, (int)at[i].w);
}

static void print_desc(const char* label, cudaChannelFormatDesc d) {
  printf("%s: x %d y %d z %d w %d kind %d\n", label, d.x, d.y, d.z, d.w, (int)d.f);
}

static cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureFilterMode filter) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = filter;
  cudaTextureObject_t tex = 0;
  cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (err != cudaSuccess) printf("create failed: %d\n", (int)err);
  return tex;
}

static void run(const char* label, void (*kernel)(cudaTextureObject_t, const float4*, int, float*),
                cudaTextureObject_t tex, const float4* at, int n) {
  float4* d_at;
  float* d_out;
  cudaMalloc(&d_at, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, at, n * sizeof(float4), cudaMemcpyHostToDevice);
  kernel<<<(n + 63) / 64, 64>>>(tex, d_at, n, d_out);
  cudaError_t launch = cudaGetLastError();
  float out[256];
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s (launch %d):\n", label, (int)launch);
  for (int i = 0; i < n; ++i) {
    printf("%s%a", i % 8 == 0 ? "  " : " ", out[i]);
    if (i % 8 == 7 || i == n - 1) printf("\n");
  }
  cudaFree(d_at);
  cudaFree(d_out);
}

int main() {
  print_desc("float", cudaCreateChannelDesc<float>());
  print_desc("float2", cudaCreateChannelDesc<float2>());
  print_desc("float4", cudaCreateChannelDesc<float4>());
  print_desc("uchar4", cudaCreateChannelDesc<uchar4>());
  print_desc("char2", cudaCreateChannelDesc<char2>());
  print_desc("short", cudaCreateChannelDesc<short>());
  print_desc("ushort4", cudaCreateChannelDesc<ushort4>());
  print_desc("int", cudaCreateChannelDesc<int>());
  print_desc("uint2", cudaCreateChannelDesc<uint2>());
  print_desc("8,8,0,0 unsigned", cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned));
  const int W = 4, H = 3, D = 2;
  float host[D][H][W];
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) host[z][y][x] = 100 * z + 10 * y + x + 0.125f * (x * y + z);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  // 3D array.
  {
    cudaArray_t a;
    printf("malloc 3d %d\n", (int)cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    printf("copy in %d\n", (int)cudaMemcpy3D(&p));
    cudaChannelFormatDesc got;
    printf("get desc %d\n", (int)cudaGetChannelDesc(&got, a));
    print_desc("3d array", got);
    float back[D][H][W] = {};
    cudaMemcpy3DParms q = {};
    q.srcArray = a;
    q.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, H);
    q.extent = make_cudaExtent(W, H, D);
    q.kind = cudaMemcpyDeviceToHost;
    cudaError_t out = cudaMemcpy3D(&q);
    printf("copy out %d, same %d\n", (int)out, (int)(memcmp(back, host, sizeof host) == 0));
    float4 at[128];
    int n = 0;
    for (int z = 0; z < D; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) at[n++] = make_float4(x + 0.5f, y + 0.5f, z + 0.5f, 0);
    at[n++] = make_float4(-1, -1, -1, 0);
    at[n++] = make_float4(9, 9, 9, 0);
    cudaTextureObject_t t = texture_of(a, cudaFilterModePoint);
    run("tex3D point", sample3d, t, at, n);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // 2D layered: D layers of W x H.
  {
    cudaArray_t a;
    printf("malloc 2d layered %d\n",
           (int)cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    printf("copy in %d\n", (int)cudaMemcpy3D(&p));
    float4 at[128];
    int n = 0;
    for (int layer = -1; layer <= D; ++layer)
      for (int k = 0; k < 6; ++k) at[n++] = make_float4(0.4f + k * 0.7f, 0.9f + k * 0.3f, 0, layer);
    cudaTextureObject_t t = texture_of(a, cudaFilterModePoint);
    run("tex2DLayered point", sample2dlayered, t, at, n);
    cudaDestroyTextureObject(t);
    t = texture_of(a, cudaFilterModeLinear);
    run("tex2DLayered linear", sample2dlayered, t, at, n);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // 1D layered: H layers of W texels (height 0 in the extent).
  {
    cudaArray_t a;
    printf("malloc 1d layered %d\n",
           (int)cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, 0, H), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, 1);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, 1, H);
    p.kind = cudaMemcpyHostToDevice;
    printf("copy in %d\n", (int)cudaMemcpy3D(&p));
    float4 at[128];
    int n = 0;
    for (int layer = 0; layer < H; ++layer)
      for (int k = 0; k < 7; ++k) at[n++] = make_float4(-0.2f + k * 0.71f, 0, 0, layer);
    cudaTextureObject_t t = texture_of(a, cudaFilterModeLinear);
    run("tex1DLayered linear", sample1dlayered, t, at, n);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
