// tex3d_slices_bits.cu: tex3d_slices.cu with the lo slice a power of two
// (argv[2] = "pow2") or with its significand kept (default), spreads 0..47,
// batch b: signs (b & 1: lo negative, b & 2: hi negative).
// Original text: trilinear filtering of float texels where each z slice is
// uniform (its four texels equal): slice 2m holds A_m, slice 2m+1 B_m, so
// each slice's aligned sum is exact and only the step that combines the two
// slices can round. Samples x = y = 1 (weights 128/128) at z = 2m + 0.5 + k/256
// (z weight k = 1..255), clamp addressing, unnormalized coordinates.
// Writes, per batch, the 2 * 1024 texel values then the 1024 * 255 results.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

const int kPairs = 1024, kWeights = 255, kBatches = 4;
static bool pow2 = false;

static uint64_t mix(uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x7b3f1d0c55a3e197ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static float make(uint64_t r, int e, bool negative) {
  uint32_t bits = (uint32_t)((e + 127) << 23) | (uint32_t)(r & 0x7fffff);
  if (negative) bits |= 0x80000000u;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

__global__ void sample(cudaTextureObject_t tex, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kPairs * kWeights) return;
  int m = i / kWeights, k = i % kWeights + 1;
  out[i] = tex3D<float>(tex, 1.0f, 1.0f, 2.0f * m + 0.5f + k / 256.0f);
}

int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "wb");
  pow2 = argc > 2 && strcmp(argv[2], "pow2") == 0;
  float* dout;
  cudaMalloc(&dout, kPairs * kWeights * 4);
  std::vector<float> out(kPairs * kWeights);
  for (int b = 0; b < kBatches; ++b) {
    std::vector<float> texels(2 * 2 * 2 * kPairs), ab(2 * kPairs);
    for (int m = 0; m < kPairs; ++m) {
      uint64_t r = mix((uint64_t)b * 100000 + m);
      int ea = (int)(r >> 40) % 21 - 10;
      int d = (int)((r >> 48) % 48);
      bool lo_first = (r >> 56) & 1;
      bool lo_neg = b & 1, hi_neg = (b >> 1) & 1;
      bool sa = lo_first ? lo_neg : hi_neg, sb = lo_first ? hi_neg : lo_neg;
      int eA = lo_first ? ea - d : ea, eB = lo_first ? ea : ea - d;
      uint64_t ra = mix(r), rb = mix(r + 1);
      if (pow2) { if (lo_first) ra = 0; else rb = 0; }
      float A = make(ra, eA, sa), B = make(rb, eB, sb);
      ab[2 * m] = A;
      ab[2 * m + 1] = B;
      for (int t = 0; t < 4; ++t) {
        texels[(2 * m) * 4 + t] = A;
        texels[(2 * m + 1) * 4 + t] = B;
      }
    }
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    cudaMalloc3DArray(&a, &desc, make_cudaExtent(2, 2, 2 * kPairs));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(texels.data(), 2 * 4, 2, 2);
    p.dstArray = a;
    p.extent = make_cudaExtent(2, 2, 2 * kPairs);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc td = {};
    for (int d = 0; d < 3; ++d) td.addressMode[d] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);
    sample<<<(kPairs * kWeights + 255) / 256, 256>>>(tex, dout);
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    fwrite(ab.data(), 4, ab.size(), f);
    fwrite(out.data(), 4, out.size(), f);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  fclose(f);
  printf("tex3d_slices: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
