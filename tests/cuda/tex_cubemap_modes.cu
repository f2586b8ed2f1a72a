// Cubemap textures with mirror and border addressing and seamless point
// filtering with wrap addressing (tex_cubemap.cu and tex_cubemap_edges.cu
// have the rest), next to the edges and at random directions.
// Texel (x, y) of face f holds f*4096 + y*64 + x.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>

struct Config { const char* name; cudaTextureFilterMode filter; cudaTextureAddressMode mode; int normalized; int seamless; };
static const Config configs[] = {
    {"point-mirror", cudaFilterModePoint, cudaAddressModeMirror, 1, 0},
    {"linear-mirror", cudaFilterModeLinear, cudaAddressModeMirror, 1, 0},
    {"point-border", cudaFilterModePoint, cudaAddressModeBorder, 1, 0},
    {"linear-border", cudaFilterModeLinear, cudaAddressModeBorder, 1, 0},
    {"point-wrap-seamless", cudaFilterModePoint, cudaAddressModeWrap, 1, 1},
    {"linear-border-seamless", cudaFilterModeLinear, cudaAddressModeBorder, 1, 1},
};
#define NCONF (int)(sizeof configs / sizeof configs[0])

__global__ void lookup(const cudaTextureObject_t* tex, int ntex, const float4* dir, int n,
                       float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int t = 0; t < ntex; t++)
    out[(size_t)i * ntex + t] = texCubemap<float>(tex[t], dir[i].x, dir[i].y, dir[i].z);
}

static uint64_t state = 0x243f6a8885a308d3ull;
static uint32_t next32() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(state >> 32);
}
// In [-2, 2): one exact product, nothing a compiler could fuse.
static float uniform2() { return (float)((int)(next32() >> 8) - 8388608) * (1.0f / 4194304.0f); }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static cudaTextureObject_t make(cudaArray_t a, const Config& c) {
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.filterMode = c.filter;
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = c.mode;
  td.normalizedCoords = c.normalized;
  td.seamlessCubemap = c.seamless;
  td.readMode = cudaReadModeElementType;
  td.borderColor[0] = 0.25f;  // told apart from every texel
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %s: %s\n", c.name, cudaGetErrorName(e));
  return t;
}

int main() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  const int W = 4;
  float h[6 * W * W];
  for (int f = 0; f < 6; f++)
    for (int y = 0; y < W; y++)
      for (int x = 0; x < W; x++) h[(f * W + y) * W + x] = (float)(f * 4096 + y * 64 + x);
  cudaArray_t cube;
  cudaError_t e = cudaMalloc3DArray(&cube, &desc, make_cudaExtent(W, W, 6), cudaArrayCubemap);
  printf("cubemap 4x4x6: %s\n", cudaGetErrorName(e));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(h, W * sizeof(float), W, W);
  p.dstArray = cube;
  p.extent = make_cudaExtent(W, W, 6);
  p.kind = cudaMemcpyHostToDevice;
  printf("copy in: %s\n", cudaGetErrorName(cudaMemcpy3D(&p)));

  cudaTextureObject_t tex[NCONF];
  for (int c = 0; c < NCONF; c++) tex[c] = make(cube, configs[c]);

  // Directions: ties between axes, the zero vector, points just inside and
  // just past the face edges, then random directions.
  const int MAXN = 4096;
  float4* d = new float4[MAXN];
  int n = 0;
  auto face_dir = [](int face, float u, float v) {
    float s = (u - 0.5f) * 2, t = (v - 0.5f) * 2;  // face coordinates in [-1, 1]
    switch (face) {
      case 0: return make_float4(1, -t, -s, 0);
      case 1: return make_float4(-1, -t, s, 0);
      case 2: return make_float4(s, 1, t, 0);
      case 3: return make_float4(s, -1, -t, 0);
      case 4: return make_float4(s, -t, 1, 0);
      default: return make_float4(-s, -t, -1, 0);
    }
  };
  const float ties[][3] = {{1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1},
                           {1, 0, -1}, {-1, 0, -1}, {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1},
                           {1, 1, 1}, {-1, -1, -1}, {1, -1, 1}, {-1, 1, -1}, {0, 0, 0}, {-0.0f, 0, 0},
                           {0.5f, 0.5f, 0.25f}, {2, 2, 2}, {1e-30f, 1e-30f, 0}, {0, 0, 1e-40f}};
  for (auto& t : ties) d[n++] = make_float4(t[0], t[1], t[2], 0);
  // Just inside and just past an edge: the minor coordinate next to +-1.
  for (int f = 0; f < 6; f++)
    for (int k = 0; k < 8; k++) {
      float s = from_bits(bits(1.0f) - 16 + 4 * k);  // 1 - 16ulp .. 1 + 12ulp (past the edge)
      float v = (30 + 5 * k) / 100.0f;
      float4 a = face_dir(f, (s + 1) / 2, v), b = face_dir(f, v, (s + 1) / 2);
      float4 c = face_dir(f, (1 - s) / 2, v), dd = face_dir(f, v, (1 - s) / 2);
      d[n++] = a; d[n++] = b; d[n++] = c; d[n++] = dd;
    }
  while (n < 768) {
    float x = uniform2(), y = uniform2(), z = uniform2();
    d[n++] = make_float4(x, y, z, 0);
  }

  float4* dd;
  cudaTextureObject_t* dtex;
  float* dout;
  cudaMalloc(&dd, n * sizeof(float4));
  cudaMalloc(&dtex, sizeof tex);
  cudaMalloc(&dout, (size_t)n * NCONF * sizeof(float));
  cudaMemcpy(dd, d, n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(dtex, tex, sizeof tex, cudaMemcpyHostToDevice);
  lookup<<<(n + 127) / 128, 128>>>(dtex, NCONF, dd, n, dout);
  float* out = new float[(size_t)n * NCONF];
  cudaMemcpy(out, dout, (size_t)n * NCONF * sizeof(float), cudaMemcpyDeviceToHost);
  printf("lookups: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("columns:");
  for (int c = 0; c < NCONF; c++) printf(" %s", configs[c].name);
  printf("\n");
  for (int i = 0; i < n; i++) {
    printf("%08x %08x %08x:", bits(d[i].x), bits(d[i].y), bits(d[i].z));
    for (int c = 0; c < NCONF; c++) printf(" %.9g", out[(size_t)i * NCONF + c]);
    printf("\n");
  }

  for (int c = 0; c < NCONF; c++) cudaDestroyTextureObject(tex[c]);
  cudaFreeArray(cube);
  return 0;
}
