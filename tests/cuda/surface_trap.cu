// A surf2Dread past the end of a surface with the default boundary mode,
// cudaBoundaryModeTrap: the kernel stops and the error is sticky.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void past_the_end(cudaSurfaceObject_t s, float* out) {
  out[threadIdx.x] = surf2Dread<float>(s, (4 + threadIdx.x) * 4, 0);
}

int main() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &desc, 4, 2, cudaArraySurfaceLoadStore);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  printf("create %d\n", (int)cudaCreateSurfaceObject(&s, &res));
  float* out;
  cudaMalloc(&out, 32 * sizeof(float));
  past_the_end<<<1, 2>>>(s, out);
  printf("launch %d\n", (int)cudaGetLastError());
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  printf("get %d then %d\n", (int)cudaGetLastError(), (int)cudaGetLastError());
  printf("malloc after %d\n", (int)cudaMalloc(&out, 4));
  return 0;
}
