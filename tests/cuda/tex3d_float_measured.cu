// Trilinear filtering (tex3D, cudaFilterModeLinear) inside the domain the
// emulator reproduces: the batches of tests/cuda/fitting/tex3d_fit.cu whose
// float texels' exponents differ by at most 4, or 6 where none is negative
// (clamp addressing,
// unnormalized coordinates), and its 8-bit batches with mirror addressing on
// normalized coordinates. Prints a hash of each batch's fetched bits.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "fitting/tex3d_fit_inputs.h"

__global__ void sample(cudaTextureObject_t tex, const float* x, const float* y, const float* z, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, x[i], y[i], z[i]);
}

int main() {
  const int n = fit::SAMPLES;
  float *dx, *dy, *dz, *dout;
  cudaMalloc(&dx, n * 4);
  cudaMalloc(&dy, n * 4);
  cudaMalloc(&dz, n * 4);
  cudaMalloc(&dout, n * 4);
  std::vector<float> out(n);
  // Kinds 1 and 5 (batches 1, 5, 7, 11) spread their exponents over 61 and
  // 25, kind 0 (batches 0, 6) over 6 with negative texels.
  const int batches[] = {2, 3, 4, 8, 9, 10, 12, 13, 14, 15};
  for (int b : batches) {
    fit::Batch in = fit::batch(b);
    cudaChannelFormatDesc desc = in.is_float ? cudaCreateChannelDesc<float>() : cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a;
    cudaMalloc3DArray(&a, &desc, make_cudaExtent(fit::N, fit::N, fit::N));
    cudaMemcpy3DParms p = {};
    const void* src = in.is_float ? (const void*)in.texels.data() : (const void*)in.bytes.data();
    p.srcPtr = make_cudaPitchedPtr((void*)src, fit::N * (in.is_float ? 4 : 1), fit::N, fit::N);
    p.dstArray = a;
    p.extent = make_cudaExtent(fit::N, fit::N, fit::N);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc td = {};
    for (int d = 0; d < 3; ++d) td.addressMode[d] = in.is_float ? cudaAddressModeClamp : cudaAddressModeMirror;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = in.is_float ? 0 : 1;
    td.readMode = in.is_float ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);
    cudaMemcpy(dx, in.x.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, in.y.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dz, in.z.data(), n * 4, cudaMemcpyHostToDevice);
    sample<<<(n + 255) / 256, 256>>>(tex, dx, dy, dz, n, dout);
    cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
    unsigned long long hash = 1469598103934665603ull;
    for (float v : out) {
      unsigned bits;
      memcpy(&bits, &v, 4);
      hash = (hash ^ bits) * 1099511628211ull;
    }
    printf("batch %2d (%s): %d fetches, hash %016llx, first %a\n", b, in.is_float ? "float, clamp" : "uchar, mirror", n,
           hash, out[0]);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
