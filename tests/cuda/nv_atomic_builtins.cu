// The __nv_atomic_* builtins of CUDA 12.8+ with their memory-order and thread-scope
// arguments (__NV_ATOMIC_*, __NV_THREAD_SCOPE_*): the constants' values, and each
// operation's result and effect, from one thread (so the order is defined) and from
// 256 threads (fetch_add counts, min/max).
#include <cuda_runtime.h>

#include <cstdio>

struct Pair {
  int a, b;
};

__global__ void one(int* i, unsigned long long* u, float* f, double* d, long long* ll, int* res,
                    Pair* pr) {
  int k = 0;
  res[k++] = __nv_atomic_load_n(i, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(i, 17, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  res[k++] = __nv_atomic_load_n(i, __NV_ATOMIC_ACQUIRE);
  res[k++] = __nv_atomic_fetch_add(i, 5, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
  res[k++] = __nv_atomic_fetch_sub(i, 2, __NV_ATOMIC_RELAXED);
  res[k++] = __nv_atomic_fetch_and(i, 0x1c, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_THREAD);
  res[k++] = __nv_atomic_fetch_or(i, 0x101, __NV_ATOMIC_RELAXED);
  res[k++] = __nv_atomic_fetch_xor(i, 0x33, __NV_ATOMIC_RELAXED);
  res[k++] = __nv_atomic_fetch_min(i, 3, __NV_ATOMIC_RELAXED);
  res[k++] = __nv_atomic_fetch_max(i, -4, __NV_ATOMIC_RELAXED);
  res[k++] = __nv_atomic_exchange_n(i, 99, __NV_ATOMIC_RELAXED);
  int expected = 98;
  res[k++] = __nv_atomic_compare_exchange_n(i, &expected, 5, false, __NV_ATOMIC_SEQ_CST,
                                            __NV_ATOMIC_RELAXED);
  res[k++] = expected;
  res[k++] = __nv_atomic_compare_exchange_n(i, &expected, 5, true, __NV_ATOMIC_ACQ_REL,
                                            __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  res[k++] = expected;
  __nv_atomic_add(i, 10, __NV_ATOMIC_RELAXED);
  __nv_atomic_sub(i, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_and(i, 0xff, __NV_ATOMIC_RELAXED);
  __nv_atomic_or(i, 0x100, __NV_ATOMIC_RELAXED);
  __nv_atomic_xor(i, 0x3, __NV_ATOMIC_RELAXED);
  __nv_atomic_min(i, 1000, __NV_ATOMIC_RELAXED);
  __nv_atomic_max(i, 270, __NV_ATOMIC_RELAXED);
  res[k++] = *i;
  int v = 0, w = 41, r = 0;
  __nv_atomic_load(i, &v, __NV_ATOMIC_RELAXED);
  res[k++] = v;
  __nv_atomic_store(i, &w, __NV_ATOMIC_RELAXED);
  __nv_atomic_exchange(i, &v, &r, __NV_ATOMIC_RELAXED);
  res[k++] = r;
  res[k++] = *i;
  unsigned long long old = __nv_atomic_fetch_add(u, 1ull << 40, __NV_ATOMIC_RELAXED);
  res[k++] = (int)(old >> 32);
  res[k++] = (int)(*u >> 32);
  res[k++] = (int)(__nv_atomic_fetch_add(f, 0.25f, __NV_ATOMIC_RELAXED) * 100);
  res[k++] = (int)(*f * 100);
  res[k++] = (int)(__nv_atomic_fetch_sub(d, 0.5, __NV_ATOMIC_RELAXED) * 100);
  res[k++] = (int)(*d * 100);
  res[k++] = (int)__nv_atomic_fetch_min(ll, -(1ll << 40), __NV_ATOMIC_RELAXED);
  res[k++] = (int)(*ll >> 40);
  Pair want = {1, 2}, put = {3, 4};
  res[k++] = __nv_atomic_compare_exchange(pr, &want, &put, false, __NV_ATOMIC_RELAXED,
                                          __NV_ATOMIC_RELAXED);
  res[k++] = pr->a * 10 + pr->b;
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL);
  res[k++] = -1;
}

__global__ void many(unsigned* counter, int* lo, int* hi) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_atomic_fetch_add(counter, (unsigned)t, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_min(lo, 1000 - t, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_max(hi, (t * 37) % 1001, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}

__global__ void constants(int* c) {
  int k = 0;
  c[k++] = __NV_ATOMIC_RELAXED;
  c[k++] = __NV_ATOMIC_CONSUME;
  c[k++] = __NV_ATOMIC_ACQUIRE;
  c[k++] = __NV_ATOMIC_RELEASE;
  c[k++] = __NV_ATOMIC_ACQ_REL;
  c[k++] = __NV_ATOMIC_SEQ_CST;
  c[k++] = __NV_THREAD_SCOPE_THREAD;
  c[k++] = __NV_THREAD_SCOPE_BLOCK;
  c[k++] = __NV_THREAD_SCOPE_CLUSTER;
  c[k++] = __NV_THREAD_SCOPE_DEVICE;
  c[k++] = __NV_THREAD_SCOPE_SYSTEM;
}

int main() {
  int* dc;
  int hc[11];
  cudaMalloc(&dc, sizeof hc);
  constants<<<1, 1>>>(dc);
  cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost);
  printf("orders %d %d %d %d %d %d\n", hc[0], hc[1], hc[2], hc[3], hc[4], hc[5]);
  printf("scopes %d %d %d %d %d\n", hc[6], hc[7], hc[8], hc[9], hc[10]);
  int* i;
  unsigned long long* u;
  float* f;
  double* d;
  long long* ll;
  int* res;
  Pair* pr;
  cudaMalloc(&i, sizeof(int));
  cudaMalloc(&u, sizeof *u);
  cudaMalloc(&f, sizeof *f);
  cudaMalloc(&d, sizeof *d);
  cudaMalloc(&ll, sizeof *ll);
  cudaMalloc(&res, 64 * sizeof(int));
  cudaMalloc(&pr, sizeof(Pair));
  int i0 = 12;
  unsigned long long u0 = 3ull << 40;
  float f0 = 1.5f;
  double d0 = 2.25;
  long long ll0 = 5ll << 40;
  Pair p0 = {1, 2};
  cudaMemcpy(i, &i0, sizeof i0, cudaMemcpyHostToDevice);
  cudaMemcpy(u, &u0, sizeof u0, cudaMemcpyHostToDevice);
  cudaMemcpy(f, &f0, sizeof f0, cudaMemcpyHostToDevice);
  cudaMemcpy(d, &d0, sizeof d0, cudaMemcpyHostToDevice);
  cudaMemcpy(ll, &ll0, sizeof ll0, cudaMemcpyHostToDevice);
  cudaMemcpy(pr, &p0, sizeof p0, cudaMemcpyHostToDevice);
  one<<<1, 1>>>(i, u, f, d, ll, res, pr);
  int h[64];
  cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost);
  printf("one");
  for (int k = 0; k < 64 && h[k] != -1; ++k) printf(" %d", h[k]);
  printf("\n");
  unsigned* c;
  int *lo, *hi;
  cudaMalloc(&c, sizeof *c);
  cudaMalloc(&lo, sizeof *lo);
  cudaMalloc(&hi, sizeof *hi);
  unsigned c0 = 0;
  int lo0 = 5000, hi0 = -5000;
  cudaMemcpy(c, &c0, sizeof c0, cudaMemcpyHostToDevice);
  cudaMemcpy(lo, &lo0, sizeof lo0, cudaMemcpyHostToDevice);
  cudaMemcpy(hi, &hi0, sizeof hi0, cudaMemcpyHostToDevice);
  many<<<4, 256>>>(c, lo, hi);
  cudaMemcpy(&c0, c, sizeof c0, cudaMemcpyDeviceToHost);
  cudaMemcpy(&lo0, lo, sizeof lo0, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hi0, hi, sizeof hi0, cudaMemcpyDeviceToHost);
  printf("many %u %d %d\n", c0, lo0, hi0);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
