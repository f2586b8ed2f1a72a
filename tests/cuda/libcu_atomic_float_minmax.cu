// cuda::atomic_ref<float>::fetch_min and fetch_max (and double) over 256 threads, and
// the old values one thread sees: the minimum and maximum as cuda::std::min and max
// find them (libcu++'s reference pages), with a negative zero against a positive one.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void minmax(float* f, double* d, float* olds) {
  const int i = threadIdx.x;
  const float v = (i * 37 % 101 - 50) * 0.375f;
  cuda::atomic_ref<float, cuda::thread_scope_device>(f[0]).fetch_min(v);
  cuda::atomic_ref<float, cuda::thread_scope_device>(f[1]).fetch_max(v);
  cuda::atomic_ref<double, cuda::thread_scope_device>(d[0]).fetch_min(v * 0.5);
  cuda::atomic_ref<double, cuda::thread_scope_device>(d[1]).fetch_max(v * 0.5);
  if (i == 0) {
    cuda::atomic<float, cuda::thread_scope_thread> z(0.0f);
    olds[0] = z.fetch_min(-0.0f);
    olds[1] = z.load();
    olds[2] = z.fetch_max(0.0f);
    olds[3] = z.load();
  }
}

int main() {
  float hf[2] = {1e30f, -1e30f}, ho[4];
  double hd[2] = {1e300, -1e300};
  float *f, *o;
  double* d;
  cudaMalloc(&f, sizeof hf);
  cudaMalloc(&d, sizeof hd);
  cudaMalloc(&o, sizeof ho);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
  minmax<<<1, 256>>>(f, d, o);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  printf("float min %a max %a double min %a max %a\n", hf[0], hf[1], hd[0], hd[1]);
  printf("zeros %a %a %a %a\n", ho[0], ho[1], ho[2], ho[3]);
  printf("status %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
