// Pitched and 2D/3D linear memory: the pitch cudaMallocPitch and cudaMalloc3D
// choose for several widths, cudaMemcpy2D/2DAsync round trips (host to device,
// device to device with offsets, device to host), cudaMemset2D/3D, cudaMemcpy3D
// between pitched pointers with positions, make_cudaPitchedPtr/Extent/Pos, and
// the error codes of bad pitches and extents.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void mark(char* p, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) p[y * pitch + x] = (char)(x + 3 * y);
}

int main() {
  size_t widths[] = {1, 100, 512, 513, 1000, 4096};
  for (size_t w : widths) {
    void* p = nullptr;
    size_t pitch = 0;
    cudaError_t e = cudaMallocPitch(&p, &pitch, w, 3);
    printf("mallocpitch width %zu: %d pitch %zu\n", w, (int)e, pitch);
    cudaFree(p);
  }
  for (size_t w : widths) {
    cudaPitchedPtr pp;
    cudaError_t e = cudaMalloc3D(&pp, make_cudaExtent(w, 4, 2));
    printf("malloc3d width %zu: %d pitch %zu xsize %zu ysize %zu\n", w, (int)e, pp.pitch,
           pp.xsize, pp.ysize);
    cudaFree(pp.ptr);
  }
  const int W = 20, H = 5;
  char host[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) host[y][x] = (char)(y * W + x);
  char* d = nullptr;
  size_t pitch = 0;
  cudaMallocPitch((void**)&d, &pitch, W, H);
  printf("memset2d %d\n", (int)cudaMemset2D(d, pitch, 0x7f, W, H));
  printf("copy2d h2d %d\n", (int)cudaMemcpy2D(d, pitch, host, W, W, H, cudaMemcpyHostToDevice));
  char* d2 = nullptr;
  size_t pitch2 = 0;
  cudaMallocPitch((void**)&d2, &pitch2, W, H);
  cudaMemset2D(d2, pitch2, 0, W, H);
  printf("copy2d d2d %d\n",
         (int)cudaMemcpy2D(d2 + pitch2 + 2, pitch2, d + 1, pitch, 6, 3, cudaMemcpyDeviceToDevice));
  char back[H][W];
  memset(back, 1, sizeof back);
  printf("copy2d d2h %d\n", (int)cudaMemcpy2D(back, W, d2, pitch2, W, H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y) {
    printf("row %d:", y);
    for (int x = 0; x < W; ++x) printf(" %d", back[y][x]);
    printf("\n");
  }
  cudaStream_t s;
  cudaStreamCreate(&s);
  printf("copy2d async %d\n",
         (int)cudaMemcpy2DAsync(back, W, d, pitch, W, H, cudaMemcpyDeviceToHost, s));
  printf("memset2d async %d\n", (int)cudaMemset2DAsync(d, pitch, 9, 4, 2, s));
  cudaStreamSynchronize(s);
  printf("back[4][19] %d\n", back[4][19]);
  mark<<<H, W>>>(d, pitch, W, H);
  cudaMemcpy2D(back, W, d, pitch, W, H, cudaMemcpyDeviceToHost);
  printf("marked %d %d %d\n", back[0][0], back[2][5], back[4][19]);
  // Errors.
  printf("width > dpitch %d\n", (int)cudaMemcpy2D(back, 4, d, pitch, W, H, cudaMemcpyDeviceToHost));
  cudaGetLastError();
  printf("width > spitch %d\n", (int)cudaMemcpy2D(back, W, d, 4, W, H, cudaMemcpyDeviceToHost));
  cudaGetLastError();
  printf("memset2d width > pitch %d\n", (int)cudaMemset2D(d, 4, 0, W, H));
  cudaGetLastError();
  printf("zero height %d\n", (int)cudaMemcpy2D(back, W, d, pitch, W, 0, cudaMemcpyDeviceToHost));
  printf("zero width %d\n", (int)cudaMemcpy2D(back, W, d, pitch, 0, H, cudaMemcpyDeviceToHost));
  cudaGetLastError();

  // 3D.
  const int X = 6, Y = 3, Z = 2;
  cudaExtent ext = make_cudaExtent(X, Y, Z);
  cudaPitchedPtr a, b;
  cudaMalloc3D(&a, ext);
  cudaMalloc3D(&b, ext);
  printf("memset3d %d\n", (int)cudaMemset3D(a, 5, ext));
  printf("memset3d part %d\n", (int)cudaMemset3D(b, 0, ext));
  char h3[Z][Y][X];
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x) h3[z][y][x] = (char)(100 + 10 * z + 3 * y + x);
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h3, X, X, Y);
  p.dstPtr = a;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  printf("copy3d h2d %d\n", (int)cudaMemcpy3D(&p));
  cudaMemcpy3DParms q = {0};
  q.srcPtr = a;
  q.srcPos = make_cudaPos(1, 1, 0);
  q.dstPtr = b;
  q.dstPos = make_cudaPos(2, 0, 1);
  q.extent = make_cudaExtent(3, 2, 1);
  q.kind = cudaMemcpyDeviceToDevice;
  printf("copy3d d2d %d\n", (int)cudaMemcpy3D(&q));
  char o3[Z][Y][X];
  cudaMemcpy3DParms r = {0};
  r.srcPtr = b;
  r.dstPtr = make_cudaPitchedPtr(o3, X, X, Y);
  r.extent = ext;
  r.kind = cudaMemcpyDeviceToHost;
  printf("copy3d d2h %d\n", (int)cudaMemcpy3D(&r));
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y) {
      printf("z %d y %d:", z, y);
      for (int x = 0; x < X; ++x) printf(" %d", o3[z][y][x]);
      printf("\n");
    }
  r.kind = cudaMemcpyDefault;
  printf("copy3d default %d\n", (int)cudaMemcpy3DAsync(&r, s));
  cudaStreamSynchronize(s);
  cudaMemcpy3DParms bad = r;
  bad.extent = make_cudaExtent(X + 100, Y, Z);
  printf("copy3d too wide %d\n", (int)cudaMemcpy3D(&bad));
  cudaGetLastError();
  printf("copy3d null %d\n", (int)cudaMemcpy3D(nullptr));
  cudaGetLastError();
  cudaStreamDestroy(s);
  printf("free %d %d %d %d\n", (int)cudaFree(d), (int)cudaFree(d2), (int)cudaFree(a.ptr),
         (int)cudaFree(b.ptr));
  return 0;
}
