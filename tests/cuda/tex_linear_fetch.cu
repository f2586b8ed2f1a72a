// Texture objects over linear memory (cudaResourceTypeLinear): tex1Dfetch of
// float, int, float4, uchar4 (element type) and of uchar and short read as
// normalized floats, with indices before, inside and past the buffer, plus
// the error codes of texture descriptions the runtime rejects.
#include <cstdio>
#include <cuda_runtime.h>

template <class T>
__global__ void fetch(cudaTextureObject_t tex, int first, int n, T* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<T>(tex, first + i);
}

__global__ void fetch_into(cudaTextureObject_t tex, int n, float* out) {
  int i = threadIdx.x;
  if (i < n) tex1Dfetch(&out[i], tex, i);
}

static cudaTextureObject_t make(void* ptr, size_t bytes, cudaChannelFormatDesc desc,
                                cudaTextureReadMode mode, cudaError_t* err) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = ptr;
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = bytes;
  cudaTextureDesc td = {};
  td.readMode = mode;
  td.filterMode = cudaFilterModePoint;
  td.addressMode[0] = cudaAddressModeClamp;
  cudaTextureObject_t tex = 0;
  *err = cudaCreateTextureObject(&tex, &res, &td, nullptr);
  return tex;
}

int main() {
  const int n = 14;
  // float: indices -3 .. 10 over 8 elements.
  {
    float h[8];
    for (int i = 0; i < 8; ++i) h[i] = i * 1.5f - 3.25f;
    float* d;
    float* out;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t err;
    cudaTextureObject_t t = make(d, sizeof h, cudaCreateChannelDesc<float>(),
                                 cudaReadModeElementType, &err);
    printf("float create %d\n", (int)err);
    fetch<float><<<1, 32>>>(t, -3, n, out);
    float r[n];
    printf("launch %d sync %d\n", (int)cudaGetLastError(), (int)cudaDeviceSynchronize());
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("float:");
    for (int i = 0; i < n; ++i) printf(" %a", r[i]);
    printf("\n");
    fetch_into<<<1, 32>>>(t, 8, out);
    cudaMemcpy(r, out, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("float into:");
    for (int i = 0; i < 8; ++i) printf(" %a", r[i]);
    printf("\n");
    printf("destroy %d\n", (int)cudaDestroyTextureObject(t));
    // A texture over the first 5 floats only (20 bytes).
    t = make(d, 5 * sizeof(float), cudaCreateChannelDesc<float>(), cudaReadModeElementType, &err);
    printf("float5 create %d\n", (int)err);
    fetch<float><<<1, 32>>>(t, -3, n, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("float5:");
    for (int i = 0; i < n; ++i) printf(" %a", r[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
    // Rejected descriptions.
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeNormalizedFloat;
    printf("float normalized read: %d\n", (int)cudaCreateTextureObject(&t, &res, &td, nullptr));
    cudaGetLastError();
    td.readMode = cudaReadModeElementType;
    td.filterMode = cudaFilterModeLinear;
    err = cudaCreateTextureObject(&t, &res, &td, nullptr);
    printf("float linear filter on linear memory: %d\n", (int)err);
    if (err == cudaSuccess) {
      fetch<float><<<1, 32>>>(t, 0, 8, out);
      cudaMemcpy(r, out, 8 * sizeof(float), cudaMemcpyDeviceToHost);
      printf("float linear-filter fetch:");
      for (int i = 0; i < 8; ++i) printf(" %a", r[i]);
      printf("\n");
      cudaDestroyTextureObject(t);
    }
    cudaGetLastError();
    td.filterMode = cudaFilterModePoint;
    printf("null texture pointer: %d\n", (int)cudaCreateTextureObject(nullptr, &res, &td, nullptr));
    cudaGetLastError();
    printf("null resource: %d\n", (int)cudaCreateTextureObject(&t, nullptr, &td, nullptr));
    cudaGetLastError();
    printf("null description: %d\n", (int)cudaCreateTextureObject(&t, &res, nullptr, nullptr));
    cudaGetLastError();
    res.res.linear.devPtr = nullptr;
    printf("null device pointer: %d\n", (int)cudaCreateTextureObject(&t, &res, &td, nullptr));
    cudaGetLastError();
    res.res.linear.devPtr = (char*)d + 4;
    printf("misaligned device pointer: %d\n", (int)cudaCreateTextureObject(&t, &res, &td, nullptr));
    cudaGetLastError();
    printf("destroy 0: %d\n", (int)cudaDestroyTextureObject(0));
    cudaGetLastError();
    cudaFree(d);
    cudaFree(out);
  }
  // int, element type.
  {
    int h[6] = {-2147483647 - 1, -1, 0, 1, 123456789, 2147483647};
    int* d;
    int* out;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, 8 * sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t err;
    cudaTextureObject_t t = make(d, sizeof h, cudaCreateChannelDesc<int>(),
                                 cudaReadModeElementType, &err);
    printf("int create %d\n", (int)err);
    fetch<int><<<1, 32>>>(t, -1, 8, out);
    int r[8];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("int:");
    for (int i = 0; i < 8; ++i) printf(" %d", r[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(d);
    cudaFree(out);
  }
  // float4 and uchar4, element type.
  {
    float4 h[3] = {{1.f, 2.f, 3.f, 4.f}, {-0.5f, 0.25f, 1e30f, -0.f}, {7.f, 8.f, 9.f, 10.f}};
    float4* d;
    float4* out;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, 5 * sizeof(float4));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t err;
    cudaTextureObject_t t = make(d, sizeof h, cudaCreateChannelDesc<float4>(),
                                 cudaReadModeElementType, &err);
    printf("float4 create %d\n", (int)err);
    fetch<float4><<<1, 32>>>(t, -1, 5, out);
    float4 r[5];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("float4:");
    for (int i = 0; i < 5; ++i) printf(" (%a %a %a %a)", r[i].x, r[i].y, r[i].z, r[i].w);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(d);
    cudaFree(out);
  }
  {
    uchar4 h[3] = {{1, 2, 3, 4}, {250, 0, 128, 255}, {9, 99, 199, 255}};
    uchar4* d;
    uchar4* out;
    float4* outf;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, 5 * sizeof(uchar4));
    cudaMalloc(&outf, 5 * sizeof(float4));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t err;
    cudaTextureObject_t t = make(d, sizeof h, cudaCreateChannelDesc<uchar4>(),
                                 cudaReadModeElementType, &err);
    printf("uchar4 create %d\n", (int)err);
    fetch<uchar4><<<1, 32>>>(t, -1, 5, out);
    uchar4 r[5];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("uchar4:");
    for (int i = 0; i < 5; ++i) printf(" (%d %d %d %d)", r[i].x, r[i].y, r[i].z, r[i].w);
    printf("\n");
    cudaDestroyTextureObject(t);
    t = make(d, sizeof h, cudaCreateChannelDesc<uchar4>(), cudaReadModeNormalizedFloat, &err);
    printf("uchar4 normalized create %d\n", (int)err);
    fetch<float4><<<1, 32>>>(t, 0, 3, outf);
    float4 f[3];
    cudaMemcpy(f, outf, sizeof f, cudaMemcpyDeviceToHost);
    printf("uchar4 normalized:");
    for (int i = 0; i < 3; ++i) printf(" (%a %a %a %a)", f[i].x, f[i].y, f[i].z, f[i].w);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(d);
    cudaFree(out);
    cudaFree(outf);
  }
  // uchar and short read as normalized floats.
  {
    unsigned char h[8] = {0, 1, 2, 127, 128, 200, 254, 255};
    unsigned char* d;
    float* out;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&out, 8 * sizeof(float));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t err;
    cudaTextureObject_t t = make(d, sizeof h, cudaCreateChannelDesc<unsigned char>(),
                                 cudaReadModeNormalizedFloat, &err);
    printf("uchar normalized create %d\n", (int)err);
    fetch<float><<<1, 32>>>(t, 0, 8, out);
    float r[8];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("uchar normalized:");
    for (int i = 0; i < 8; ++i) printf(" %a", r[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(d);
    short hs[8] = {-32768, -32767, -16384, -1, 0, 1, 16384, 32767};
    short* ds;
    cudaMalloc(&ds, sizeof hs);
    cudaMemcpy(ds, hs, sizeof hs, cudaMemcpyHostToDevice);
    t = make(ds, sizeof hs, cudaCreateChannelDesc<short>(), cudaReadModeNormalizedFloat, &err);
    printf("short normalized create %d\n", (int)err);
    fetch<float><<<1, 32>>>(t, 0, 8, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("short normalized:");
    for (int i = 0; i < 8; ++i) printf(" %a", r[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFree(ds);
    cudaFree(out);
  }
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
