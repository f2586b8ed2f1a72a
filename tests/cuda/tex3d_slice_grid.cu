// How the H200 adds the two z slices of a trilinear float fetch (tex3D,
// cudaFilterModeLinear), where the slices' exponents are far apart. Each
// 2x2x2 cell of a 3D texture is sampled at its centre in x and y, so each
// slice's four texels share its weight; the result's bits are printed.
//   1. A slice whose weighted value lies exactly on a rounding tie of the
//      float result, the other slice of the other sign and smaller by 2^-24
//      to 2^-44: where the small slice still counts and where it vanishes
//      depends on the larger slice's exponent modulo 4.
//   2. A slice whose texels cancel exactly (+A, -A, -A, +A, equal weights),
//      the other slice small: the cancelled slice's exponent plays no part.
//   3. Random texels whose exponents span -60..60, mixed signs, normalized
//      coordinates with mirror addressing and with border addressing.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static uint64_t s = 0x3c6ef372fe94f82bull;
static uint32_t rnd() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
static float unif() { return (rnd() & 0xffffff) / 16777216.0f; }
static float from_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static int bitlen(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

__global__ void sample3d(cudaTextureObject_t tex, const float4* at, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, at[i].x, at[i].y, at[i].z);
}

static cudaTextureObject_t make(const std::vector<float>& host, int W, int H, int D, cudaTextureDesc td) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void*)host.data(), W * sizeof(float), W, H);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaError_t e = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  if (e != cudaSuccess) printf("create %d\n", (int)e);
  return tex;
}

static std::vector<float> run(cudaTextureObject_t t, const std::vector<float4>& at) {
  int n = at.size();
  float4* d_at;
  float* d_out;
  cudaMalloc(&d_at, n * sizeof(float4));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_at, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  sample3d<<<(n + 127) / 128, 128>>>(t, d_at, n, d_out);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_at);
  cudaFree(d_out);
  return out;
}

static void print(const char* title, const std::vector<float>& v) {
  printf("%s\n", title);
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    printf("%08x%s", b, (i % 8 == 7 || i + 1 == v.size()) ? "\n" : " ");
  }
}

static cudaTextureDesc clamp_desc() {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  return td;
}

// Cells of 2x2x2 texels, 16 in x by 16 in y by `layers` in z, each given
// its hi texels (the slice with weight wh) and lo texels; the sample
// point is the cell's centre in x and y, and weight wh on the hi slice.
struct Cells {
  static const int kSide = 16;
  int layers;
  std::vector<float> texels;
  std::vector<float4> at;
  explicit Cells(int n) : layers((n + kSide * kSide - 1) / (kSide * kSide)),
                          texels((size_t)4 * kSide * kSide * 2 * layers, 0.0f) {}
  void put(int c, const float hi[4], const float lo[4], bool lo_first, int wh) {
    int cx = c % kSide, cy = (c / kSide) % kSide, cz = c / (kSide * kSide);
    int zh = lo_first ? 2 * cz + 1 : 2 * cz, zl = lo_first ? 2 * cz : 2 * cz + 1;
    for (int t = 0; t < 4; ++t) {
      int x = 2 * cx + (t & 1), y = 2 * cy + (t >> 1);
      texels[((size_t)zh * 2 * kSide + y) * 2 * kSide + x] = hi[t];
      texels[((size_t)zl * 2 * kSide + y) * 2 * kSide + x] = lo[t];
    }
    int k = lo_first ? wh : 256 - wh;  // the z weight of slice 2 cz + 1
    at.push_back(make_float4(2.0f * cx + 1.0f, 2.0f * cy + 1.0f, 2.0f * cz + 0.5f + k / 256.0f, 0));
  }
  std::vector<float> sample() {
    return run(make(texels, 2 * kSide, 2 * kSide, 2 * layers, clamp_desc()), at);
  }
};

int main() {
  // 1. A slice on a rounding tie: 64 hi slices of four equal texels A, one
  // for each biased exponent 120..135 (four times), weight wh odd, A's low
  // bits chosen so that A * wh / 256 lies halfway between two floats; the
  // lo slice B of the other sign, B = A's exponent minus 24..44.
  {
    Cells cells(64 * 21);
    for (int h = 0; h < 64; ++h) {
      int be = 120 + h % 16;
      bool hi_neg = (h / 16) % 2 == 0, lo_first = h / 32;
      uint64_t wh = 0, m = 0;
      for (;;) {
        wh = 3 + 2 * (rnd() % 126);
        m = 0x800000 | (rnd() & 0x7fffff);
        int n = bitlen(m * wh), r = n - 24;
        uint64_t inv = 1;
        for (int i = 0; i < 6; ++i) inv *= 2 - wh * inv;  // the inverse of wh modulo 2^64
        uint64_t mask = (1ull << r) - 1;
        m = (m & ~mask) | (((1ull << (r - 1)) * inv) & mask);
        if (m >= 0x800000 && bitlen(m * wh) == n && ((m * wh) & mask) == (1ull << (r - 1))) break;
      }
      float A = from_bits((uint32_t)be << 23 | (uint32_t)(m & 0x7fffff) | (hi_neg ? 0x80000000u : 0));
      for (int d = 24; d <= 44; ++d) {
        float B = from_bits((uint32_t)(be - d) << 23 | (rnd() & 0x7fffff) | (hi_neg ? 0 : 0x80000000u));
        const float hi[4] = {A, A, A, A}, lo[4] = {B, B, B, B};
        cells.put(h * 21 + d - 24, hi, lo, lo_first, (int)wh);
      }
    }
    print("a slice on a rounding tie, the other of the other sign, 2^-24 to 2^-44 of it", cells.sample());
  }
  // 2. A slice that cancels: +A, -A, -A, +A at equal weights (wh = 128),
  // A from 2^-20 to 2^40; the other slice small, positive or negative.
  {
    Cells cells(64);
    for (int c = 0; c < 64; ++c) {
      float A = ldexpf(1.0f + unif(), -20 + (int)(rnd() % 61));
      float B = ldexpf(1.0f + unif(), -24 + (int)(rnd() % 8)) * ((c & 1) ? -1.0f : 1.0f);
      const float hi[4] = {A, -A, -A, A}, lo[4] = {B, B, B * 0.5f, B};
      cells.put(c, hi, lo, c & 2, 128);
    }
    print("a slice whose texels cancel, the other small", cells.sample());
  }
  // 3. Random texels, exponents -60..60, half of them negative, through
  // normalized coordinates with mirror and with border (colour -1e-9) addressing.
  {
    const int W = 6, H = 5, D = 4;
    std::vector<float> h(W * H * D);
    for (auto& v : h) v = ldexpf(1.0f + unif(), (int)(rnd() % 121) - 60) * ((rnd() & 1) ? -1.0f : 1.0f);
    std::vector<float4> at;
    for (int i = 0; i < 512; ++i) at.push_back(make_float4(-0.2f + 1.4f * unif(), -0.2f + 1.4f * unif(), -0.2f + 1.4f * unif(), 0));
    const cudaTextureAddressMode modes[2] = {cudaAddressModeMirror, cudaAddressModeBorder};
    const char* names[2] = {"random texels, exponents -60..60, normalized, mirror",
                            "random texels, exponents -60..60, normalized, border -1e-9"};
    for (int m = 0; m < 2; ++m) {
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = modes[m];
      td.normalizedCoords = 1;
      if (m == 1) td.borderColor[0] = -1e-9f;
      print(names[m], run(make(h, W, H, D, td), at));
    }
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
