// Surface objects: surf2Dwrite into a cudaArraySurfaceLoadStore array (x in
// bytes), surf2Dread back with cudaBoundaryModeClamp and cudaBoundaryModeZero
// at coordinates before, inside and past the array (writes past it with Zero
// and Clamp too), the array read through a texture and cudaMemcpy2DFromArray,
// and surf1D / surf3D on uchar4 and float arrays.
#include <cstdio>
#include <cuda_runtime.h>

const int W = 6, H = 4;

__global__ void fill(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite(100.0f * y + x, s, x * (int)sizeof(float), y);
}

__global__ void read_back(cudaSurfaceObject_t s, const int2* at, int n, float* clamp, float* zero) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    clamp[i] = surf2Dread<float>(s, at[i].x, at[i].y, cudaBoundaryModeClamp);
    surf2Dread(&zero[i], s, at[i].x, at[i].y, cudaBoundaryModeZero);
  }
}

__global__ void write_outside(cudaSurfaceObject_t s) {
  // Zero: the write is dropped; Clamp: it lands on the nearest element.
  surf2Dwrite(-1.0f, s, W * 4, 0, cudaBoundaryModeZero);
  surf2Dwrite(-2.0f, s, -4, 1, cudaBoundaryModeZero);
  surf2Dwrite(-3.0f, s, W * 4 + 8, 2, cudaBoundaryModeClamp);
  surf2Dwrite(-4.0f, s, 0, H + 3, cudaBoundaryModeClamp);
}

__global__ void sample(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void rw1d(cudaSurfaceObject_t s, uchar4* out) {
  int x = threadIdx.x;
  surf1Dwrite(make_uchar4(x, 2 * x, 255 - x, 7), s, x * 4);
  __syncthreads();
  out[x] = surf1Dread<uchar4>(s, (x + 1) * 4, cudaBoundaryModeClamp);
  out[8 + x] = surf1Dread<uchar4>(s, (x - 2) * 4, cudaBoundaryModeZero);
}

__global__ void rw3d(cudaSurfaceObject_t s, float* out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  surf3Dwrite(1000.0f * z + 10.0f * y + x, s, x * 4, y, z);
  __syncthreads();
  int i = (z * 3 + y) * 4 + x;
  out[i] = surf3Dread<float>(s, (x + 1) * 4, y - 1, z + 1, cudaBoundaryModeClamp);
  out[24 + i] = surf3Dread<float>(s, (x + 1) * 4, y - 1, z + 1, cudaBoundaryModeZero);
}

int main() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  printf("malloc %d\n", (int)cudaMallocArray(&a, &desc, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  printf("create surface %d\n", (int)cudaCreateSurfaceObject(&s, &res));
  fill<<<1, dim3(W, H)>>>(s);
  printf("fill %d %d\n", (int)cudaGetLastError(), (int)cudaDeviceSynchronize());
  int2 at[64];
  int n = 0;
  for (int x = -2; x <= W + 1; ++x) at[n++] = make_int2(x * 4, 1);
  for (int y = -2; y <= H + 1; ++y) at[n++] = make_int2(8, y);
  at[n++] = make_int2(W * 4 + 100, H + 100);
  at[n++] = make_int2(-1000, -1000);
  int2* d_at;
  float *d_clamp, *d_zero;
  cudaMalloc(&d_at, n * sizeof(int2));
  cudaMalloc(&d_clamp, n * sizeof(float));
  cudaMalloc(&d_zero, n * sizeof(float));
  cudaMemcpy(d_at, at, n * sizeof(int2), cudaMemcpyHostToDevice);
  read_back<<<1, 64>>>(s, d_at, n, d_clamp, d_zero);
  float clamp[64], zero[64];
  cudaMemcpy(clamp, d_clamp, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(zero, d_zero, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("read (%d):\n", (int)cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) printf("  (%d, %d) clamp %g zero %g\n", at[i].x, at[i].y, clamp[i], zero[i]);
  write_outside<<<1, 1>>>(s);
  printf("write outside %d %d\n", (int)cudaGetLastError(), (int)cudaDeviceSynchronize());
  float back[H][W];
  printf("copy from array %d\n", (int)cudaMemcpy2DFromArray(back, W * sizeof(float), a, 0, 0,
                                                            W * sizeof(float), H,
                                                            cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y) {
    printf(" ");
    for (int x = 0; x < W; ++x) printf(" %g", back[y][x]);
    printf("\n");
  }
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t t;
  printf("texture over it %d\n", (int)cudaCreateTextureObject(&t, &res, &td, nullptr));
  float* d_out;
  cudaMalloc(&d_out, W * H * sizeof(float));
  sample<<<1, dim3(W, H)>>>(t, d_out);
  float tex[W * H];
  cudaMemcpy(tex, d_out, sizeof tex, cudaMemcpyDeviceToHost);
  printf("through tex2D:");
  for (int i = 0; i < W * H; ++i) printf(" %g", tex[i]);
  printf("\n");
  cudaDestroyTextureObject(t);
  printf("destroy surface %d\n", (int)cudaDestroySurfaceObject(s));
  // An array without the surface flag.
  cudaArray_t plain;
  cudaMallocArray(&plain, &desc, W, H);
  res.res.array.array = plain;
  printf("surface on a plain array %d\n", (int)cudaCreateSurfaceObject(&s, &res));
  cudaGetLastError();
  cudaFreeArray(plain);
  res.resType = cudaResourceTypeLinear;
  printf("surface on linear memory %d\n", (int)cudaCreateSurfaceObject(&s, &res));
  cudaGetLastError();
  // 1D uchar4 surface.
  {
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a1;
    cudaMallocArray(&a1, &d4, 8, 0, cudaArraySurfaceLoadStore);
    cudaResourceDesc r1 = {};
    r1.resType = cudaResourceTypeArray;
    r1.res.array.array = a1;
    cudaSurfaceObject_t s1;
    printf("create 1d %d\n", (int)cudaCreateSurfaceObject(&s1, &r1));
    uchar4* d_o;
    cudaMalloc(&d_o, 16 * sizeof(uchar4));
    rw1d<<<1, 8>>>(s1, d_o);
    uchar4 o[16];
    cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
    printf("surf1D:");
    for (int i = 0; i < 16; ++i) printf(" (%d %d %d %d)", o[i].x, o[i].y, o[i].z, o[i].w);
    printf("\n");
    cudaDestroySurfaceObject(s1);
    cudaFreeArray(a1);
    cudaFree(d_o);
  }
  // 3D float surface 4x3x2.
  {
    cudaArray_t a3;
    printf("malloc 3d %d\n", (int)cudaMalloc3DArray(&a3, &desc, make_cudaExtent(4, 3, 2),
                                                     cudaArraySurfaceLoadStore));
    cudaResourceDesc r3 = {};
    r3.resType = cudaResourceTypeArray;
    r3.res.array.array = a3;
    cudaSurfaceObject_t s3;
    printf("create 3d %d\n", (int)cudaCreateSurfaceObject(&s3, &r3));
    float* d_o;
    cudaMalloc(&d_o, 48 * sizeof(float));
    rw3d<<<1, dim3(4, 3, 2)>>>(s3, d_o);
    float o[48];
    cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
    printf("surf3D:");
    for (int i = 0; i < 48; ++i) printf(" %g", o[i]);
    printf("\n");
    cudaDestroySurfaceObject(s3);
    cudaFreeArray(a3);
    cudaFree(d_o);
  }
  printf("free %d\n", (int)cudaFreeArray(a));
  return 0;
}
