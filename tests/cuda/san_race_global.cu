// Global-memory hazards between threads of one block within one barrier
// interval. compute-sanitizer's racecheck watches shared memory only, so the
// H200 reports none of them; the CPU emulator's racecheck reports them as a
// check of its own. Read after write (raw: thread t writes a[t] at line 17,
// thread t + 1 reads it at line 18), write after read (war: line 23 reads
// a[t + 1] before thread t + 1 writes it at line 24) and write after write
// (ww: every thread writes *last, line 28); raw in one warp is a warp-level
// hazard. The clean kernels must stay clean: a barrier or __syncwarp between,
// adjacent threads writing adjacent bytes, per-thread in-place updates,
// atomics, a grid-stride loop. Prints only what the races cannot change.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void raw(int* a, int* b) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  a[t] = t + 1;
  b[t] = threadIdx.x > 0 ? a[t - 1] : 0;
}

__global__ void war(int* a, int* b) {
  int t = threadIdx.x;
  int next = t + 1 < blockDim.x ? a[t + 1] : 0;
  a[t] = next + 1;
  b[t] = next;
}

__global__ void ww(int* last) { *last = threadIdx.x; }

__global__ void synced(int* a, int* b) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  a[t] = t + 1;
  __syncthreads();
  b[t] = threadIdx.x > 0 ? a[t - 1] : 0;
}

__global__ void warp_synced(int* a, int* b) {
  int t = threadIdx.x;
  a[t] = t + 1;
  __syncwarp();
  b[t] = t > 0 ? a[t - 1] : 0;
}

__global__ void bytes(unsigned char* img, unsigned int* sum) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  img[t] = static_cast<unsigned char>(t);
  img[t] += 3;
  atomicAdd(sum, img[t]);
}

__global__ void stride(float* v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v[i] = v[i] * 2.0f + 1.0f;
}

int main() {
  int *a, *b;
  cudaMalloc(&a, 512 * sizeof(int));
  cudaMalloc(&b, 512 * sizeof(int));
  cudaMemset(a, 0, 512 * sizeof(int));
  cudaMemset(b, 0, 512 * sizeof(int));
  raw<<<2, 256>>>(a, b);
  raw<<<1, 32>>>(a, b);
  war<<<1, 256>>>(a, b);
  ww<<<1, 256>>>(a);
  cudaError_t racy = cudaDeviceSynchronize();
  static int h[512];
  synced<<<2, 256>>>(a, b);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  long long s = 0;
  for (int i = 0; i < 512; ++i) s += h[i] * (i % 7 + 1);
  warp_synced<<<1, 32>>>(a, b);
  cudaMemcpy(h, b, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  long long w = 0;
  for (int i = 0; i < 32; ++i) w += h[i] * (i + 1);
  unsigned char* img;
  unsigned int* sum;
  cudaMalloc(&img, 1000);
  cudaMalloc(&sum, sizeof(unsigned int));
  cudaMemset(sum, 0, sizeof(unsigned int));
  bytes<<<4, 250>>>(img, sum);
  unsigned int hs = 0;
  cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
  float* v;
  const int n = 10000;
  static float hv[n];
  for (int i = 0; i < n; ++i) hv[i] = static_cast<float>(i % 100);
  cudaMalloc(&v, n * sizeof(float));
  cudaMemcpy(v, hv, sizeof hv, cudaMemcpyHostToDevice);
  stride<<<3, 128>>>(v, n);
  cudaError_t clean = cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
  double t = 0;
  for (int i = 0; i < n; ++i) t += hv[i];
  std::printf("racy %d clean %d synced %lld warp %lld bytes %u stride %.1f\n", racy, clean, s, w,
              hs, t);
  cudaFree(a);
  cudaFree(b);
  cudaFree(img);
  cudaFree(sum);
  cudaFree(v);
  return 0;
}
