// Cooperative groups, block_tile_memory: `__shared__ cg::block_tile_memory<N> scratch;`
// handed to this_thread_block(scratch), whose block is cut into two tiles of N/2 threads
// (N = 64 ... 1024) that each reduce a float, a double and an int sum with cg::reduce;
// thread 0 of each tile writes its tile's sum to shared memory and thread 0 of the block
// adds the two after cg::sync(block). Also tiles of 64 without block_tile_memory in the
// same kernel shape, sizeof(block_tile_memory<N>), and a grid of several blocks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

template <unsigned N, class Block>
__device__ void body(const Block& cta, const float* in, float* fout, double* dout, int* iout) {
  __shared__ float fs[2];
  __shared__ double ds[2];
  __shared__ int is[2];
  auto tile = cg::tiled_partition<N / 2>(cta);
  unsigned i = blockIdx.x * N + threadIdx.x;
  float f = in[i];
  float fsum = cg::reduce(tile, f, cg::plus<float>());
  double dsum = cg::reduce(tile, static_cast<double>(f) * (1.0 + 1e-9 * i), cg::plus<double>());
  int isum = cg::reduce(tile, static_cast<int>(i % 97) - 40, cg::plus<int>());
  if (tile.thread_rank() == 0) {
    fs[tile.meta_group_rank()] = fsum;
    ds[tile.meta_group_rank()] = dsum;
    is[tile.meta_group_rank()] = isum;
  }
  cg::sync(cta);
  if (threadIdx.x == 0) {
    float ft = 0;
    double dt = 0;
    int it = 0;
    for (unsigned k = 0; k < tile.meta_group_size(); ++k) {
      ft += fs[k];
      dt += ds[k];
      it += is[k];
    }
    fout[blockIdx.x] = ft;
    dout[blockIdx.x] = dt;
    iout[blockIdx.x] = it;
  }
}

template <unsigned N, bool Scratch>
__global__ void halves(const float* in, float* fout, double* dout, int* iout) {
  if constexpr (Scratch) {
    __shared__ cg::block_tile_memory<N> scratch;
    auto cta = cg::this_thread_block(scratch);
    body<N>(cta, in, fout, dout, iout);
  } else {
    body<N>(cg::this_thread_block(), in, fout, dout, iout);
  }
}

template <unsigned N, bool Scratch>
void run(const float* din, float* df, double* dd, int* di) {
  const int blocks = 3;
  halves<N, Scratch><<<blocks, N>>>(din, df, dd, di);
  float hf[blocks];
  double hd[blocks];
  int hi[blocks];
  cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
  std::printf("N %4u scratch %d sizeof %zu launch %d:", N, Scratch ? 1 : 0,
              sizeof(cg::block_tile_memory<N>), static_cast<int>(cudaGetLastError()));
  for (int b = 0; b < blocks; ++b) std::printf(" %a %a %d", hf[b], hd[b], hi[b]);
  std::printf("\n");
}

int main() {
  const int n = 3 * 1024;
  static float h[n];
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    float m = static_cast<float>((x >> 8) & 0xffff) / 65536.0f;
    int e = static_cast<int>((x >> 24) % 40) - 20;
    h[i] = ((x & 1) ? -1.0f : 1.0f) * m * static_cast<float>(1 << (e > 0 ? e % 20 : 0)) /
           static_cast<float>(1 << (e < 0 ? -e % 20 : 0));
  }
  float* din;
  float* df;
  double* dd;
  int* di;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&df, 3 * sizeof(float));
  cudaMalloc(&dd, 3 * sizeof(double));
  cudaMalloc(&di, 3 * sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  run<64, true>(din, df, dd, di);
  run<128, true>(din, df, dd, di);
  run<256, true>(din, df, dd, di);
  run<512, true>(din, df, dd, di);
  run<1024, true>(din, df, dd, di);
  run<128, false>(din, df, dd, di);
  run<1024, false>(din, df, dd, di);
  std::printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
