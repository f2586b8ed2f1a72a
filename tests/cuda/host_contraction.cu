// Where `a*b + c` is fused into one multiply-add: nvcc fuses it in device
// code (kernels, __device__ functions, lambdas inside kernels), while the
// host code of a .cu file goes to the host compiler,
// which targets plain x86-64 and rounds the product first. Each line hashes
// 4096 results of the same expression over the same inputs.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

const int N = 4096;

static float input(int i) { return (float)((i * 2654435761u) >> 8) / 16777216.0f; }

__device__ float madd(float a, float b, float c) { return a * b + c; }

// The inputs come from memory, so that each form has one product to fuse.
__global__ void device_forms(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float a = in[i], b = in[i + N], c = in[i + 2 * N];
  out[i] = a * b + c;                // in the kernel
  out[N + i] = madd(a, b, c);        // in a __device__ function
  auto plain = [=](float x) { return x * b + c; };
  out[2 * N + i] = plain(a);         // a lambda inside the kernel
}

static unsigned long long hash(const float* v, int n) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) {
    unsigned bits;
    memcpy(&bits, &v[i], 4);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

static float host_madd(float a, float b, float c) { return a * b + c; }

int main() {
  static float in[3 * N], host[2 * N];
  for (int i = 0; i < 3 * N; ++i) in[i] = input(i);
  for (int i = 0; i < N; ++i) {
    volatile float va = in[i], vb = in[i + N], vc = in[i + 2 * N];  // from memory, as in the kernel
    float a = va, b = vb, c = vc;
    host[i] = a * b + c;                 // in main
    host[N + i] = host_madd(a, b, c);    // in a host function
  }
  float *d_in, *d;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d, 3 * N * sizeof(float));
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  device_forms<<<N / 256, 256>>>(d_in, d);
  static float dev[3 * N];
  cudaMemcpy(dev, d, sizeof dev, cudaMemcpyDeviceToHost);
  int fused_differs = 0;
  for (int i = 0; i < N; ++i) fused_differs += memcmp(&host[i], &dev[i], 4) != 0;
  printf("host main          %016llx\n", hash(host, N));
  printf("host function      %016llx\n", hash(host + N, N));
  printf("kernel             %016llx\n", hash(dev, N));
  printf("device function    %016llx\n", hash(dev + N, N));
  printf("lambda in kernel   %016llx\n", hash(dev + 2 * N, N));
  printf("host and kernel differ in %d of %d\n", fused_differs, N);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
