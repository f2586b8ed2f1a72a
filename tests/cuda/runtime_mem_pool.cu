// Stream-ordered allocation with the default memory pool: cudaMallocAsync and
// cudaFreeAsync around a kernel, the pool's reuse and release-threshold
// attributes (defaults, then set and read back), cudaMemPoolTrimTo, and the
// error codes of a bad device and a null pool.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void square(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * i;
}

int main() {
  int supported = -1;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0);
  printf("pools supported %d\n", supported);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* d = nullptr;
  int r = (int)cudaMallocAsync(&d, 1000 * sizeof(int), s);
  printf("malloc async %d non-null %d\n", r, d != nullptr);
  square<<<4, 256, 0, s>>>(d, 1000);
  int h[1000];
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  r = (int)cudaFreeAsync(d, s);
  int r2 = (int)cudaStreamSynchronize(s);
  printf("free async %d sync %d h[999] %d\n", r, r2, h[999]);
  cudaMemPool_t pool = nullptr, current = nullptr;
  r = (int)cudaDeviceGetDefaultMemPool(&pool, 0);
  r2 = (int)cudaDeviceGetMemPool(&current, 0);
  printf("default pool %d current %d same %d\n", r, r2, pool == current);
  int reuse = -1;
  for (int a = 1; a <= 3; ++a) {
    reuse = -1;
    r = (int)cudaMemPoolGetAttribute(pool, (cudaMemPoolAttr)a, &reuse);
    printf("reuse attr %d: %d value %d\n", a, r, reuse);
  }
  unsigned long long threshold = 12345;
  r = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  printf("threshold %d %llu\n", r, threshold);
  threshold = ~0ull;
  r = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  threshold = 0;
  r2 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  printf("set threshold %d get %d %llu\n", r, r2, threshold);
  reuse = 0;
  r = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse);
  reuse = -1;
  r2 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse);
  printf("set reuse %d get %d %d\n", r, r2, reuse);
  printf("trim %d\n", (int)cudaMemPoolTrimTo(pool, 0));
  printf("bad device %d\n", (int)cudaDeviceGetDefaultMemPool(&pool, 3));
  cudaGetLastError();
  printf("malloc async zero %d\n", (int)cudaMallocAsync(&d, 0, s));
  cudaGetLastError();
  printf("free async null %d\n", (int)cudaFreeAsync(nullptr, s));
  cudaGetLastError();
  cudaStreamDestroy(s);
  printf("sync %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
