// <cuda/barrier>: cuda::memcpy_async into a barrier's phase, global to shared memory: a
// size_t size (float4 per thread), cuda::aligned_size_t<4> and <16> sizes, and the
// cooperative-groups form memcpy_async(block, dst, src, size, bar) (the whole block
// copies one buffer); the data is there once arrive_and_wait() returns. Then the
// reduction simpleAWBarrier makes: tiles of 32 shuffle their sums, warp leaders write
// them to dynamic shared memory, arrive() / wait(token), warp 0 adds them up, under a
// cooperative launch with grid.sync() between the block and grid steps. Printed from
// the host, sums as hex floats.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <utility>

namespace cg = cooperative_groups;

__global__ void copies(const float* in, float* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float4 a4[64];
  __shared__ float b[64 * 3];
  __shared__ alignas(16) float c[256];
  __shared__ alignas(16) float e[256];
  cg::thread_block block = cg::this_thread_block();
  int t = threadIdx.x;
  const float* src = in + blockIdx.x * 1024;
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  for (int round = 0; round < 3; ++round) {
    const float* r = src + round * 8;
    cuda::memcpy_async(&a4[t], reinterpret_cast<const float4*>(r) + t, sizeof(float4), bar);
    cuda::memcpy_async(&b[3 * t], r + 256 + 3 * t, cuda::aligned_size_t<4>(3 * sizeof(float)), bar);
    cuda::memcpy_async(block, c, r + 512, sizeof(float) * 256, bar);
    cuda::memcpy_async(block, e, r + 768, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
    bar.arrive_and_wait();
    float v = a4[63 - t].x * a4[(t + 1) % 64].w + b[(t * 5) % 192] - c[(t * 4 + 3) % 256] + e[255 - t];
    out[(blockIdx.x * 3 + round) * 64 + t] = v;
    bar.arrive_and_wait();  // everyone has read before the next round's copies
  }
}

template <bool root>
__device__ void reduce_block(cuda::barrier<cuda::thread_scope_block>& bar,
                             cg::thread_block_tile<32>& tile, double sum, double* result) {
  extern __shared__ double partial[];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = sum;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  if (tile.meta_group_rank() == 0) {
    double s = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.0;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) s += tile.shfl_down(s, offset);
    if (tile.thread_rank() == 0) *result = root ? sqrt(s) : s;
  }
}

__global__ void scale_by_norm(float* a, const float* b, double* partial, int n) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block cta = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  cg::sync(cta);
  double sum = 0.0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += static_cast<double>(a[i] * b[i]);
  reduce_block<false>(bar, tile, sum, &partial[blockIdx.x]);
  cg::sync(grid);
  if (blockIdx.x == 0) {
    sum = 0.0;
    for (int i = cta.thread_rank(); i < static_cast<int>(gridDim.x); i += cta.size()) sum += partial[i];
    reduce_block<true>(bar, tile, sum, &partial[0]);
  }
  cg::sync(grid);
  double total = partial[0];
  for (int i = grid.thread_rank(); i < n; i += grid.size()) a[i] = static_cast<float>(a[i] / total);
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
  const int blocks = 2;
  float h_in[blocks * 1024 + 64];
  for (int i = 0; i < blocks * 1024 + 64; ++i) h_in[i] = 1.0f / (i + 1) + (i % 13) * 0.25f;
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, blocks * 3 * 64 * sizeof(float));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  copies<<<blocks, 64>>>(d_in, d_out);
  printf("copies: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  float h_out[blocks * 3 * 64];
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int k = 0; k < blocks * 3; ++k) {
    printf("block %d round %d: out[0] %a out[63] %a, hash of all %08x\n", k / 3, k % 3,
           h_out[k * 64], h_out[k * 64 + 63], hash_bits(h_out + k * 64, 64));
  }

  const int n = 40000, nb = 6, threads = 256;
  float* h_a = new float[n];
  float* h_b = new float[n];
  for (int i = 0; i < n; ++i) {
    h_a[i] = 1.0f + (i % 101) / 64.0f + 1.0f / (i + 3);
    h_b[i] = 0.5f + (i % 37) / 16.0f;
  }
  float *d_a, *d_b;
  double* d_partial;
  cudaMalloc(&d_a, n * sizeof(float));
  cudaMalloc(&d_b, n * sizeof(float));
  cudaMalloc(&d_partial, nb * sizeof(double));
  cudaMemcpy(d_a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b, n * sizeof(float), cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&d_a, &d_b, &d_partial, &nn};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)scale_by_norm, dim3(nb), dim3(threads), args,
                                              (threads / 32 + 1) * sizeof(double), 0);
  printf("norm: launch %d sync %d\n", e, cudaDeviceSynchronize());
  double total;
  cudaMemcpy(&total, d_partial, sizeof total, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_a, d_a, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("norm %a, a[0] %a a[%d] %a, hash of a %08x\n", total, h_a[0], n - 1, h_a[n - 1],
         hash_bits(h_a, n));
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_partial);
  delete[] h_a;
  delete[] h_b;
  return 0;
}
