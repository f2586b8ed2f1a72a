// <cuda/pipeline>: pipelines of thread scope (cuda::make_pipeline()), as the tiled matrix
// multiplies of cuda-samples' globalToShmemAsyncCopy use them: one stage per tile
// (producer_acquire, two cuda::memcpy_async of cuda::aligned_size_t<4>, producer_commit,
// consumer_wait, __syncthreads, compute, consumer_release), and three stages in flight
// in rotating buffers with float4 copies (cuda::aligned_size_t<16>) by a quarter of the
// threads. The product of 64x96 and 96x48 matrices is printed from the host as hex.
#include <cuda/pipeline>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int T = 16;

__global__ void single_stage(float* C, const float* A, const float* B, int wA, int wB) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * T * blockIdx.y, aEnd = aBegin + wA - 1, bBegin = T * blockIdx.x;
  float sum = 0.0f;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<alignof(float)>(sizeof(float));
  for (int a = aBegin, b = bBegin; a <= aEnd; a += T, b += T * wB) {
    pipe.producer_acquire();
    cuda::memcpy_async(&As[ty][tx], &A[a + wA * ty + tx], shape, pipe);
    cuda::memcpy_async(&Bs[ty][tx], &B[b + wB * ty + tx], shape, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    for (int k = 0; k < T; ++k) sum += As[ty][k] * Bs[k][tx];
    pipe.consumer_release();
    __syncthreads();
  }
  C[wB * T * blockIdx.y + T * blockIdx.x + wB * ty + tx] = sum;
}

__global__ void multi_stage(float* C, const float* A, const float* B, int wA, int wB) {
  constexpr int stages = 3;
  __shared__ alignas(16) float As[stages][T][T];
  __shared__ alignas(16) float Bs[stages][T][T];
  int tx = threadIdx.x, ty = threadIdx.y, t4x = tx * 4;
  int aBegin = wA * T * blockIdx.y, bBegin = T * blockIdx.x;
  int tiles = wA / T;
  float sum = 0.0f;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  int fetched = 0;
  for (int i = 0; i < tiles; ++i) {
    // Keep up to `stages` tiles in flight; the buffer of tile i is i % stages.
    for (; fetched < tiles && fetched < i + stages; ++fetched) {
      pipe.producer_acquire();
      if (t4x < T) {
        int j = fetched % stages;
        int a = aBegin + fetched * T, b = bBegin + fetched * T * wB;
        cuda::memcpy_async(&As[j][ty][t4x], &A[a + wA * ty + t4x], shape4, pipe);
        cuda::memcpy_async(&Bs[j][ty][t4x], &B[b + wB * ty + t4x], shape4, pipe);
      }
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    int j = i % stages;
    for (int k = 0; k < T; ++k) sum += As[j][ty][k] * Bs[j][k][tx];
    pipe.consumer_release();
    __syncthreads();  // tile i's buffer is refilled by the next iteration's fetch
  }
  C[wB * T * blockIdx.y + T * blockIdx.x + wB * ty + tx] = sum;
}

// FNV-1a over the bits of n floats (host arithmetic the compiler cannot fuse or reorder).
static unsigned hash_bits(const float* v, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i) {
    unsigned b;
    memcpy(&b, &v[i], sizeof b);
    for (int k = 0; k < 4; ++k) h = (h ^ ((b >> (8 * k)) & 0xffu)) * 16777619u;
  }
  return h;
}

int main() {
  const int hA = 64, wA = 96, wB = 48;
  static float hAm[hA * wA], hBm[wA * wB], hC[hA * wB];
  for (int i = 0; i < hA * wA; ++i) hAm[i] = 1.0f / (1 + i % 17) + (i % 5) * 0.125f;
  // Each float operation rounded once, spelled through double so that g++ cannot fuse the
  // product into the subtraction (host code of a .cu file is compiled with the device
  // code's contraction; nvcc's host compiler never fuses): the values nvcc's host code
  // computes from (i % 11) * 0.3f - 1.0f / (2 + i % 7).
  for (int i = 0; i < wA * wB; ++i) {
    float p = static_cast<float>(static_cast<double>(i % 11) * static_cast<double>(0.3f));
    hBm[i] = static_cast<float>(static_cast<double>(p) - static_cast<double>(1.0f / (2 + i % 7)));
  }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, sizeof hAm);
  cudaMalloc(&dB, sizeof hBm);
  cudaMalloc(&dC, sizeof hC);
  cudaMemcpy(dA, hAm, sizeof hAm, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hBm, sizeof hBm, cudaMemcpyHostToDevice);
  for (int kernel = 0; kernel < 2; ++kernel) {
    cudaMemset(dC, 0, sizeof hC);
    dim3 grid(wB / T, hA / T), block(T, T);
    if (kernel == 0)
      single_stage<<<grid, block>>>(dC, dA, dB, wA, wB);
    else
      multi_stage<<<grid, block>>>(dC, dA, dB, wA, wB);
    printf("%s: launch %d sync %d\n", kernel == 0 ? "single stage" : "three stages",
           cudaGetLastError(), cudaDeviceSynchronize());
    cudaMemcpy(hC, dC, sizeof hC, cudaMemcpyDeviceToHost);
    printf("  C[0] %a C[1] %a C[%d] %a, hash of all %08x\n", hC[0], hC[1], hA * wB - 1,
           hC[hA * wB - 1], hash_bits(hC, hA * wB));
  }
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
