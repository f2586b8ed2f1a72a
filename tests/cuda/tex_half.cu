// Half-float (16-bit float) textures, read as floats: a 1D array of 16
// special halves (zeros, subnormals, the largest finite, infinities, NaNs)
// fetched at each texel with point filtering and between neighbours with
// linear filtering at fractions 1/256, 64/256, 128/256 and 200/256; a 2D
// half4 array of random halves filtered linearly at random points (clamp)
// and a half2 linear-memory texture read with tex1Dfetch; the channel
// descriptions cudaCreateChannelDescHalf*() give; and the error for a
// normalized-float read of half texels. Results as float bit patterns.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void fetch1d(cudaTextureObject_t tex, const float* xs, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, xs[i]);
}

__global__ void fetch2d(cudaTextureObject_t tex, const float2* at, int n, float4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(tex, at[i].x, at[i].y);
}

__global__ void fetch_linear(cudaTextureObject_t tex, int n, float2* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float2>(tex, i);
}

unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

cudaTextureObject_t texture_of(const cudaResourceDesc& res, cudaTextureFilterMode filter,
                               cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = read;
  cudaTextureObject_t tex = 0;
  cudaError_t err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (err != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorString(err));
  return tex;
}

int main() {
  const cudaChannelFormatDesc descs[] = {cudaCreateChannelDescHalf(), cudaCreateChannelDescHalf1(),
                                         cudaCreateChannelDescHalf2(), cudaCreateChannelDescHalf4()};
  for (const cudaChannelFormatDesc& d : descs)
    printf("desc %d %d %d %d kind %d\n", d.x, d.y, d.z, d.w, static_cast<int>(d.f));

  // 1D: the special halves.
  const unsigned short specials[16] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x8001, 0x0400, 0x3c00, 0xbc00,
                                       0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3555, 0x4248};
  cudaChannelFormatDesc d1 = cudaCreateChannelDescHalf();
  cudaArray_t a1;
  cudaMallocArray(&a1, &d1, 16);
  cudaMemcpy2DToArray(a1, 0, 0, specials, sizeof specials, sizeof specials, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc r1 = {};
  r1.resType = cudaResourceTypeArray;
  r1.res.array.array = a1;
  static float xs[256], out1[256];
  float* d_xs;
  float* d_out1;
  cudaMalloc(&d_xs, sizeof xs);
  cudaMalloc(&d_out1, sizeof out1);
  int n = 0;
  for (int i = 0; i < 16; ++i) xs[n++] = i + 0.5f;
  cudaMemcpy(d_xs, xs, n * sizeof(float), cudaMemcpyHostToDevice);
  fetch1d<<<1, 256>>>(texture_of(r1, cudaFilterModePoint), d_xs, n, d_out1);
  cudaMemcpy(out1, d_out1, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("point:");
  for (int i = 0; i < n; ++i) printf(" %08x", bits(out1[i]));
  printf("\n");
  const int fractions[4] = {1, 64, 128, 200};
  n = 0;
  for (int i = 0; i < 15; ++i)
    for (int f : fractions) xs[n++] = i + 0.5f + f / 256.0f;
  cudaMemcpy(d_xs, xs, n * sizeof(float), cudaMemcpyHostToDevice);
  fetch1d<<<1, 256>>>(texture_of(r1, cudaFilterModeLinear), d_xs, n, d_out1);
  cudaMemcpy(out1, d_out1, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 15; ++i) {
    printf("linear %04x %04x:", specials[i], specials[i + 1]);
    for (int k = 0; k < 4; ++k) printf(" %08x", bits(out1[4 * i + k]));
    printf("\n");
  }

  // 2D half4: random finite halves, linear filtering at random points.
  const int W = 8, H = 6;
  static unsigned short texels[H][W][4];
  unsigned seed = 2024;
  auto next = [&seed]() {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < 4; ++c) {
        unsigned short h = next() & 0xffff;
        if ((h & 0x7c00) == 0x7c00) h ^= 0x4000;  // no infinities or NaNs here
        texels[y][x][c] = h;
      }
  cudaChannelFormatDesc d4 = cudaCreateChannelDescHalf4();
  cudaArray_t a4;
  cudaMallocArray(&a4, &d4, W, H);
  cudaMemcpy2DToArray(a4, 0, 0, texels, W * 8, W * 8, H, cudaMemcpyHostToDevice);
  cudaResourceDesc r4 = {};
  r4.resType = cudaResourceTypeArray;
  r4.res.array.array = a4;
  const int m = 400;
  static float2 at[m];
  static float4 out4[m];
  for (int i = 0; i < m; ++i) {
    at[i].x = -1.0f + (W + 2) * (next() & 0xffff) / 65536.0f;
    at[i].y = -1.0f + (H + 2) * (next() & 0xffff) / 65536.0f;
  }
  float2* d_at;
  float4* d_out4;
  cudaMalloc(&d_at, sizeof at);
  cudaMalloc(&d_out4, sizeof out4);
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  fetch2d<<<(m + 127) / 128, 128>>>(texture_of(r4, cudaFilterModeLinear), d_at, m, d_out4);
  cudaMemcpy(out4, d_out4, sizeof out4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; ++i)
    printf("half4 (%a, %a): %08x %08x %08x %08x\n", at[i].x, at[i].y, bits(out4[i].x), bits(out4[i].y),
           bits(out4[i].z), bits(out4[i].w));

  // half2 in linear memory, tex1Dfetch.
  const int k = 24;
  static unsigned short pairs[k][2];
  for (int i = 0; i < k; ++i) {
    pairs[i][0] = specials[i % 16];
    pairs[i][1] = next() & 0xffff;
  }
  void* d_pairs;
  cudaMalloc(&d_pairs, sizeof pairs);
  cudaMemcpy(d_pairs, pairs, sizeof pairs, cudaMemcpyHostToDevice);
  cudaResourceDesc rl = {};
  rl.resType = cudaResourceTypeLinear;
  rl.res.linear.devPtr = d_pairs;
  rl.res.linear.desc = cudaCreateChannelDescHalf2();
  rl.res.linear.sizeInBytes = sizeof pairs;
  static float2 out2[k];
  float2* d_out2;
  cudaMalloc(&d_out2, sizeof out2);
  fetch_linear<<<1, 32>>>(texture_of(rl, cudaFilterModePoint), k, d_out2);
  cudaMemcpy(out2, d_out2, sizeof out2, cudaMemcpyDeviceToHost);
  for (int i = 0; i < k; ++i)
    printf("half2 %04x %04x: %08x %08x\n", pairs[i][0], pairs[i][1], bits(out2[i].x), bits(out2[i].y));

  // A normalized-float read of half texels.
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex = 0;
  cudaError_t err = cudaCreateTextureObject(&tex, &r1, &td, nullptr);
  printf("normalized read of halves: %s\n", cudaGetErrorName(err));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
