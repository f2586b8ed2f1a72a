// tex3d_tie.cu: where does the H200's trilinear float filter drop a small
// slice? Each 2x2x2 cell holds a hi slice of four equal texels A whose
// weighted sum A * wh / 256 lies exactly on a rounding tie of the float
// result, and a lo slice of opposite sign: B in all four texels (mode 0),
// or B in texel (x0, y0) (mode 1) or (x1, y1) (mode 2), the others 0. The
// exact sum lies just inside the tie (with mode bit 4, A is in texel (x1, y1)
// alone and the tie is A's weighted value); the result shows whether any of the
// lo slice reached the sum. B scans 2^(eA - d) (1 + i/4), d = 24..44; mode 3: the lo slice all 0 (the tie itself).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

static uint64_t mix(uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static float from_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static int bitlen(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

struct Record { uint32_t a, b, k, mode, lo_first, result; };

// The weight of texel t (x bit + 2 y bit) in a slice of weight S at x = y
// weights 128, as the emulator splits it (src/emulate/shim/cuda_emu_texture.cpp).
static uint32_t texel_weight(uint32_t S, int t) {
  uint32_t A = (S * 128 + 128) >> 8, C = S - A;
  uint32_t c1 = (C * 128 + 127) >> 8, a1 = (A * 128 + 128) >> 8;
  const uint32_t w[4] = {C - c1, A - a1, c1, a1};
  return w[t];
}

__global__ void sample(cudaTextureObject_t tex, const uint32_t* ks, float* out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  int cx = c % 32, cy = (c / 32) % 32, cz = c / 1024;
  out[c] = tex3D<float>(tex, 2.0f * cx + 1.0f, 2.0f * cy + 1.0f, 2.0f * cz + 0.5f + ks[c] / 256.0f);
}

int main(int argc, char** argv) {
  const int kHi = 512, kD0 = 24, kD1 = 44, kSteps = 4, kModes = 4;
  std::vector<Record> rec;
  for (int h = 0; h < kHi; ++h) {
    bool hi_neg = !(h & 1), lo_first = (h >> 1) & 1, hi_single = (h >> 2) & 1;
    uint32_t A = 0, wh = 0;
    for (uint64_t t = 0;; ++t) {
      uint64_t r = mix((uint64_t)h * 1000 + t);
      int ea = (int)(r >> 40) % 21 - 10;
      wh = 1 + (uint32_t)((r >> 52) % 255);  // the hi slice's weight
      uint64_t we = hi_single ? texel_weight(wh, 3) : wh;  // what multiplies A
      if (we < 3 || !(we & 1)) continue;
      uint64_t mh = 0x800000 | (r & 0x7fffff);
      int n = bitlen(mh * we), rr = n - 24;
      uint64_t inv = 1;
      for (int i = 0; i < 6; ++i) inv = inv * (2 - we * inv);  // we^-1 mod 2^64
      uint64_t mask = (1ull << rr) - 1, low = ((1ull << (rr - 1)) * inv) & mask;
      mh = (mh & ~mask) | low;
      if (mh < 0x800000 || bitlen(mh * we) != n || ((mh * we) & mask) != (1ull << (rr - 1))) continue;
      A = (uint32_t)((ea + 127) << 23) | (uint32_t)(mh & 0x7fffff) | (hi_neg ? 0x80000000u : 0);
      break;
    }
    int ea = (int)((A >> 23) & 255) - 127;
    for (int d = kD0; d <= kD1; ++d)
      for (int i = 0; i < kSteps; ++i)
        for (int mode = 0; mode < kModes; ++mode) {
          uint32_t B = (uint32_t)((ea - d + 127) << 23) | (uint32_t)(i << 21) | (hi_neg ? 0 : 0x80000000u);
          uint32_t k = lo_first ? wh : 256 - wh;
          rec.push_back({A, B, k, (uint32_t)(mode | hi_single << 4), (uint32_t)lo_first, 0});
        }
  }
  const int n = (int)rec.size(), depth = 2 * ((n + 1023) / 1024);
  std::vector<float> texels((size_t)64 * 64 * depth, 0.0f);
  std::vector<uint32_t> ks(n);
  for (int c = 0; c < n; ++c) {
    const Record& r = rec[c];
    int cx = c % 32, cy = (c / 32) % 32, cz = c / 1024;
    int zh = r.lo_first ? 2 * cz + 1 : 2 * cz, zl = r.lo_first ? 2 * cz : 2 * cz + 1;
    for (int t = 0; t < 4; ++t) {
      int x = 2 * cx + (t & 1), y = 2 * cy + (t >> 1);
      const uint32_t lo_mode = r.mode & 15, hi_single = r.mode >> 4;
      texels[((size_t)zh * 64 + y) * 64 + x] = (!hi_single || t == 3) ? from_bits(r.a) : 0.0f;
      bool put = lo_mode != 3 && (lo_mode == 0 || (lo_mode == 1 && t == 0) || (lo_mode == 2 && t == 3));
      texels[((size_t)zl * 64 + y) * 64 + x] = put ? from_bits(r.b) : 0.0f;
    }
    ks[c] = r.k;
  }
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMalloc3DArray(&arr, &desc, make_cudaExtent(64, 64, depth));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(texels.data(), 64 * 4, 64, 64);
  p.dstArray = arr;
  p.extent = make_cudaExtent(64, 64, depth);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  for (int d = 0; d < 3; ++d) td.addressMode[d] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  uint32_t* dk; float* dout;
  cudaMalloc(&dk, n * 4); cudaMalloc(&dout, n * 4);
  cudaMemcpy(dk, ks.data(), n * 4, cudaMemcpyHostToDevice);
  sample<<<(n + 255) / 256, 256>>>(tex, dk, dout, n);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  for (int c = 0; c < n; ++c) memcpy(&rec[c].result, &out[c], 4);
  FILE* f = fopen(argv[1], "wb");
  fwrite(rec.data(), sizeof(Record), n, f);
  fclose(f);
  printf("tex3d_tie: %d samples, %s\n", n, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
