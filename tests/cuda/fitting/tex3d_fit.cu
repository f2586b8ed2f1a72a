// Fitting data for trilinear filtering (tex3D, cudaFilterModeLinear) on the
// H200: float texels with clamp addressing on unnormalized coordinates, and
// 8-bit unsigned texels read as normalized floats with mirror addressing on
// normalized coordinates. Writes the fetched values' bits, batch after batch
// (tex3d_fit_inputs.h), to the file named by its argument; the emulator's
// model is fitted to them by fit_tex3d.cpp. Not a probe (it writes binary data).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "tex3d_fit_inputs.h"

__global__ void sample(cudaTextureObject_t tex, const float* x, const float* y, const float* z, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, x[i], y[i], z[i]);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tex3d_fit OUTPUT.bin\n");
    return 2;
  }
  FILE* f = fopen(argv[1], "wb");
  const int n = fit::SAMPLES;
  float *dx, *dy, *dz, *dout;
  cudaMalloc(&dx, n * 4);
  cudaMalloc(&dy, n * 4);
  cudaMalloc(&dz, n * 4);
  cudaMalloc(&dout, n * 4);
  std::vector<float> out(n);
  for (int b = 0; b < fit::FLOAT_BATCHES + fit::MIRROR_BATCHES; ++b) {
    fit::Batch in = fit::batch(b);
    cudaChannelFormatDesc desc = in.is_float ? cudaCreateChannelDesc<float>() : cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a;
    cudaMalloc3DArray(&a, &desc, make_cudaExtent(fit::N, fit::N, fit::N));
    cudaMemcpy3DParms p = {};
    const void* src = in.is_float ? (const void*)in.texels.data() : (const void*)in.bytes.data();
    const size_t es = in.is_float ? 4 : 1;
    p.srcPtr = make_cudaPitchedPtr((void*)src, fit::N * es, fit::N, fit::N);
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
    fwrite(out.data(), 4, n, f);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(a);
  }
  fclose(f);
  printf("wrote %d batches of %d samples: %s\n", fit::FLOAT_BATCHES + fit::MIRROR_BATCHES, n, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
