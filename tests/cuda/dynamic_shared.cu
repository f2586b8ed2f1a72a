// Dynamic shared memory (extern __shared__): a block reverses its slice
// through shared memory; two arrays carved from one buffer; a template
// kernel; different sizes in successive launches; static and dynamic shared
// memory together.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void reverse(const int* in, int* out, int n) {
  extern __shared__ int tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : -1;
  __syncthreads();
  int j = blockDim.x - 1 - threadIdx.x;
  if (i < n) out[i] = tile[j];
}

__global__ void two_arrays(float* out, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  float* a = reinterpret_cast<float*>(raw);
  double* b = reinterpret_cast<double*>(raw + ((n * sizeof(float) + 15) / 16) * 16);
  a[threadIdx.x] = threadIdx.x * 0.5f;
  b[threadIdx.x] = threadIdx.x * 0.25;
  __syncthreads();
  out[threadIdx.x] = a[(threadIdx.x + 1) % n] + static_cast<float>(b[(threadIdx.x + 2) % n]);
}

template <typename T>
__global__ void rotate(T* data) {
  extern __shared__ T buf[];
  __shared__ int static_count;
  if (threadIdx.x == 0) static_count = 0;
  buf[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  atomicAdd(&static_count, 1);
  data[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  if (threadIdx.x == 0) data[blockDim.x] = static_cast<T>(static_count);
}

int main() {
  for (int threads : {32, 128, 256}) {
    const int n = 1000;
    std::vector<int> h(n);
    for (int k = 0; k < n; ++k) h[k] = k;
    int *din, *dout;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&dout, n * sizeof(int));
    cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    reverse<<<(n + threads - 1) / threads, threads, threads * sizeof(int)>>>(din, dout, n);
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(h.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int k = 0; k < n; ++k) sum += static_cast<long>(h[k]) * (k % 7 + 1);
    std::printf("reverse, %d threads: %s, out[0]=%d out[%d]=%d out[999]=%d checksum %ld\n",
                threads, cudaGetErrorString(e), h[0], threads, h[threads], h[999], sum);
    cudaFree(din);
    cudaFree(dout);
  }
  {
    const int n = 40;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    size_t bytes = ((n * sizeof(float) + 15) / 16) * 16 + n * sizeof(double);
    two_arrays<<<1, n, bytes>>>(d, n);
    std::vector<float> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("two arrays: %s, %g %g %g\n", cudaGetErrorString(cudaGetLastError()), h[0], h[1],
                h[n - 1]);
    cudaFree(d);
  }
  {
    const int n = 64;
    double* d;
    cudaMalloc(&d, (n + 1) * sizeof(double));
    std::vector<double> h(n + 1);
    for (int k = 0; k <= n; ++k) h[k] = k * 1.5;
    cudaMemcpy(d, h.data(), (n + 1) * sizeof(double), cudaMemcpyHostToDevice);
    rotate<double><<<1, n, n * sizeof(double)>>>(d);
    cudaMemcpy(h.data(), d, (n + 1) * sizeof(double), cudaMemcpyDeviceToHost);
    std::printf("rotate<double>: %s, %g %g count %g\n", cudaGetErrorString(cudaGetLastError()),
                h[0], h[n - 1], h[n]);
    cudaFree(d);
  }
  return 0;
}
