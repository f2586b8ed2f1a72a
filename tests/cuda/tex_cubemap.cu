// Cubemap textures (cudaArrayCubemap, texCubemap, texCubemapLayered): which
// face a direction selects (the major-axis rule), point and linear filtering
// within a face, and what linear filtering does next to a face's edge
// (seamlessCubemap 0), with wrap and clamp addressing, normalized and
// unnormalized coordinates (ties between axes, the zero vector and seamless
// filtering: tex_cubemap_edges.cu). Texel
// (x, y) of face f holds f*4096 + y*64 + x, so a linear result away from the
// edges reads back as its two weights. Also the errors of bad cubemap
// arrays (width != height, depth != 6). Results are printed as bits.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>

struct Config { const char* name; cudaTextureFilterMode filter; cudaTextureAddressMode mode; int normalized; int seamless; };
static const Config configs[] = {
    {"point-clamp", cudaFilterModePoint, cudaAddressModeClamp, 1, 0},
    {"linear-clamp", cudaFilterModeLinear, cudaAddressModeClamp, 1, 0},
    {"point-wrap", cudaFilterModePoint, cudaAddressModeWrap, 1, 0},
    {"linear-wrap", cudaFilterModeLinear, cudaAddressModeWrap, 1, 0},
    {"linear-clamp-unnorm", cudaFilterModeLinear, cudaAddressModeClamp, 0, 0},
};
#define NCONF (int)(sizeof configs / sizeof configs[0])

__global__ void lookup(const cudaTextureObject_t* tex, int ntex, const float4* dir, int n,
                       float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int t = 0; t < ntex; t++)
    out[(size_t)i * ntex + t] = texCubemap<float>(tex[t], dir[i].x, dir[i].y, dir[i].z);
}

__global__ void lookup_layered(cudaTextureObject_t tex, const float4* dir, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = texCubemapLayered<float>(tex, dir[i].x, dir[i].y, dir[i].z, (int)dir[i].w);
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
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %s: %s\n", c.name, cudaGetErrorName(e));
  return t;
}

int main() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t bad = nullptr;
  cudaError_t e = cudaMalloc3DArray(&bad, &desc, make_cudaExtent(4, 5, 6), cudaArrayCubemap);
  printf("cubemap 4x5x6: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMalloc3DArray(&bad, &desc, make_cudaExtent(4, 4, 5), cudaArrayCubemap);
  printf("cubemap 4x4x5: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMalloc3DArray(&bad, &desc, make_cudaExtent(4, 4, 6), cudaArrayCubemap | cudaArrayLayered);
  printf("layered cubemap 4x4x6: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess) cudaFreeArray(bad);
  e = cudaMalloc3DArray(&bad, &desc, make_cudaExtent(4, 4, 9), cudaArrayCubemap | cudaArrayLayered);
  printf("layered cubemap 4x4x9: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  const int W = 4;
  float h[6 * W * W];
  for (int f = 0; f < 6; f++)
    for (int y = 0; y < W; y++)
      for (int x = 0; x < W; x++) h[(f * W + y) * W + x] = (float)(f * 4096 + y * 64 + x);
  cudaArray_t cube;
  e = cudaMalloc3DArray(&cube, &desc, make_cudaExtent(W, W, 6), cudaArrayCubemap);
  printf("cubemap 4x4x6: %s\n", cudaGetErrorName(e));
  cudaChannelFormatDesc got_desc;
  cudaExtent got_ext;
  unsigned got_flags = 0;
  cudaArrayGetInfo(&got_desc, &got_ext, &got_flags, cube);
  printf("info: extent %zu %zu %zu flags %u\n", got_ext.width, got_ext.height, got_ext.depth, got_flags);
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(h, W * sizeof(float), W, W);
  p.dstArray = cube;
  p.extent = make_cudaExtent(W, W, 6);
  p.kind = cudaMemcpyHostToDevice;
  printf("copy in: %s\n", cudaGetErrorName(cudaMemcpy3D(&p)));

  cudaTextureObject_t tex[NCONF];
  for (int c = 0; c < NCONF; c++) tex[c] = make(cube, configs[c]);

  // Directions: each face's texel centres and texel corners (the sample's
  // pattern), points just inside and just past the face edges, then random
  // directions.
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
  for (int f = 0; f < 6; f++)
    for (int k = 0; k <= 2 * W; k++)
      for (int j = 0; j <= 2 * W; j += 3) d[n++] = face_dir(f, k / (2.0f * W), j / (2.0f * W));
  // Just inside and just past an edge: the minor coordinate next to +-1.
  for (int f = 0; f < 6; f++)
    for (int k = 0; k < 8; k++) {
      float s = from_bits(bits(1.0f) - 16 + 4 * k);  // 1 - 16ulp .. 1 + 12ulp (past the edge)
      float v = (30 + 5 * k) / 100.0f;
      float4 a = face_dir(f, (s + 1) / 2, v), b = face_dir(f, v, (s + 1) / 2);
      float4 c = face_dir(f, (1 - s) / 2, v), dd = face_dir(f, v, (1 - s) / 2);
      d[n++] = a; d[n++] = b; d[n++] = c; d[n++] = dd;
    }
  // Major axis not of length 1: the face coordinates are a quotient.
  const float majors[] = {3.0f, 0.7f, 1e-3f, 123.456f, 1e20f};
  for (float m : majors)
    for (int k = 0; k < 12; k++) {
      float s = m * ((k - 6) / 6.0f), t = m * ((90 - 15 * k) / 100.0f);
      d[n++] = make_float4(m, s, t, 0);
      d[n++] = make_float4(s, -m, t, 0);
      d[n++] = make_float4(t, s, m, 0);
    }
  // Face coordinates next to the boundaries where point sampling changes
  // texel (s/m = -0.5, 0, 0.5) and where a linear weight changes (u W - 1/2
  // at 1/512 past a texel centre), the quotient s/m a few ulps either side:
  // they show how the GPU computes s/m.
  const float qm[] = {3.0f, 0.7f, 1.3f, 5.0f};
  const float qc[] = {-0.5f, 0.5f, 0.25f + 1.0f / 1024, -0.75f + 3.0f / 1024};
  for (float m : qm)
    for (float c : qc)
      for (int k = -3; k <= 3; k++) {
        float s = from_bits(bits(m * c) + k);
        d[n++] = make_float4(m, 0.3f * m, s, 0);
        d[n++] = make_float4(s, m, 0.3f * m, 0);
        d[n++] = make_float4(0.3f * m, s, -m, 0);
      }
  while (n < 1536) {
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

  // A layered cubemap of two cubes; layer 1 holds the values + 100000; layer
  // indices -1, 0, 1, 2 (clamped?).
  cudaArray_t lay;
  e = cudaMalloc3DArray(&lay, &desc, make_cudaExtent(W, W, 12), cudaArrayCubemap | cudaArrayLayered);
  printf("layered cubemap 4x4x12: %s\n", cudaGetErrorName(e));
  float h2[12 * W * W];
  for (int i = 0; i < 12 * W * W; i++) h2[i] = i < 6 * W * W ? h[i] : h[i - 6 * W * W] + 100000;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(h2, W * sizeof(float), W, W);
  p.dstArray = lay;
  p.extent = make_cudaExtent(W, W, 12);
  p.kind = cudaMemcpyHostToDevice;
  printf("copy in layered: %s\n", cudaGetErrorName(cudaMemcpy3D(&p)));
  cudaTextureObject_t lt = make(lay, configs[1]);
  const int nl = 64;
  float4 ld[nl];
  for (int i = 0; i < nl; i++) {
    ld[i] = d[(i * 37) % n];
    ld[i].w = (float)((i % 4) - 1);
  }
  cudaMemcpy(dd, ld, sizeof ld, cudaMemcpyHostToDevice);
  lookup_layered<<<1, nl>>>(lt, dd, nl, dout);
  float lout[nl];
  cudaMemcpy(lout, dout, sizeof lout, cudaMemcpyDeviceToHost);
  printf("layered lookups: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int i = 0; i < nl; i++)
    printf("layer %d %08x %08x %08x: %.9g\n", (int)ld[i].w, bits(ld[i].x), bits(ld[i].y), bits(ld[i].z), lout[i]);

  // Copy the cubemap back out.
  float back[6 * W * W];
  memset(&p, 0, sizeof p);
  p.srcArray = cube;
  p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, W);
  p.extent = make_cudaExtent(W, W, 6);
  p.kind = cudaMemcpyDeviceToHost;
  printf("copy out: %s, same %d\n", cudaGetErrorName(cudaMemcpy3D(&p)), memcmp(back, h, sizeof h) == 0);
  for (int c = 0; c < NCONF; c++) cudaDestroyTextureObject(tex[c]);
  cudaDestroyTextureObject(lt);
  cudaFreeArray(cube);
  cudaFreeArray(lay);
  return 0;
}
