// tex2Dgather's footprint on normalized coordinates next to the half-texel
// points where it moves by one texel: for arrays 2 rows high and 3 to 4097
// texels wide, wrap and mirror addressing, x at (k + 1/2) / width and up to
// four floats either side of it, plus pseudo-random x in [-2, 3). Texel
// (i, j) holds i + 10000 j, so each line shows the two columns the footprint
// took: the w (i, j) and z (i + 1, j) results at y = 1/2.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

__global__ void gather(cudaTextureObject_t tex, const float* xs, int n, float4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(tex, xs[i], 0.5f, 0);
}

int main() {
  const int widths[] = {3, 5, 7, 10, 33, 100, 640, 1000, 4097};
  const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeMirror};
  const char* mode_names[] = {"wrap", "mirror"};
  static float texels[2 * 4097];
  static float xs[1024];
  static float4 out[1024];
  unsigned seed = 12345;
  for (int w : widths) {
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < w; ++i) texels[j * w + i] = i + 10000.0f * j;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    cudaMallocArray(&a, &desc, w, 2, cudaArrayTextureGather);
    cudaMemcpy2DToArray(a, 0, 0, texels, w * sizeof(float), w * sizeof(float), 2,
                        cudaMemcpyHostToDevice);
    for (int m = 0; m < 2; ++m) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = a;
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = modes[m];
      td.filterMode = cudaFilterModePoint;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = 1;
      cudaTextureObject_t tex = 0;
      cudaCreateTextureObject(&tex, &res, &td, nullptr);
      int n = 0;
      // Half-texel points k + 1/2 for k from -w - 1 to 2w, thinned to about 24.
      const int step = (3 * w + 2) / 24 + 1;
      for (int k = -w - 1; k <= 2 * w; k += step) {
        const float x = (k + 0.5f) / w;
        float lo = x, hi = x;
        xs[n++] = x;
        for (int u = 0; u < 4; ++u) {
          lo = nextafterf(lo, -INFINITY);
          hi = nextafterf(hi, INFINITY);
          xs[n++] = lo;
          xs[n++] = hi;
        }
      }
      for (int r = 0; r < 32; ++r) {
        seed = seed * 1664525u + 1013904223u;
        xs[n++] = -2.0f + 5.0f * (seed >> 8) / 16777216.0f;
      }
      float* d_xs;
      float4* d_out;
      cudaMalloc(&d_xs, n * sizeof(float));
      cudaMalloc(&d_out, n * sizeof(float4));
      cudaMemcpy(d_xs, xs, n * sizeof(float), cudaMemcpyHostToDevice);
      gather<<<(n + 127) / 128, 128>>>(tex, d_xs, n, d_out);
      cudaError_t err = cudaMemcpy(out, d_out, n * sizeof(float4), cudaMemcpyDeviceToHost);
      printf("width %d, %s: %d points, %s\n", w, mode_names[m], n, cudaGetErrorString(err));
      for (int i = 0; i < n; ++i) printf("  %a: %g %g\n", xs[i], out[i].w, out[i].z);
      cudaFree(d_xs);
      cudaFree(d_out);
      cudaDestroyTextureObject(tex);
    }
    cudaFreeArray(a);
  }
  return 0;
}
