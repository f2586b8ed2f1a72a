// <cuda/pipeline>: pipelines of block scope over a __shared__
// cuda::pipeline_shared_state<cuda::thread_scope_block, N>. A unified pipeline
// (make_pipeline(block, &state): every thread produces and consumes) with two stages in
// flight, each thread reading what others copied, per-thread and cooperative
// (memcpy_async(block, ...)) copies; and a partitioned one (make_pipeline(block, &state,
// role)) as globalToShmemAsyncCopy's shared-state kernel has it: one producer warp
// fills four rotating stages (a cooperative copy by the warp and copies of
// aligned_size_t<4> by each lane) while two consumer warps wait on them and release
// them. Printed from the host.
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void unified(const int* in, int* out, int chunks) {
  constexpr int stages = 2;
  __shared__ int buf[stages][128];
  __shared__ int whole[stages][128];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int t = threadIdx.x;
  const int* src = in + blockIdx.x * chunks * 128;
  int acc = 0;
  int fetched = 0;
  for (int c = 0; c < chunks; ++c) {
    for (; fetched < chunks && fetched < c + stages; ++fetched) {
      pipe.producer_acquire();
      int j = fetched % stages;
      cuda::memcpy_async(&buf[j][t], &src[fetched * 128 + t], sizeof(int), pipe);
      cuda::memcpy_async(block, &whole[j][0], &src[((fetched + 3) % chunks) * 128],
                         sizeof(int) * 128, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    int j = c % stages;
    acc += buf[j][(t * 7 + c) % 128] * (c + 1) + whole[j][127 - t];
    pipe.consumer_release();
  }
  out[blockIdx.x * 128 + t] = acc;
}

__global__ void partitioned(const float* in, float* out, int chunks) {
  constexpr int stages = 4;
  __shared__ float buf[stages][256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  cg::thread_block block = cg::this_thread_block();
  bool producer = threadIdx.y == 2;
  auto pipe = cuda::make_pipeline(
      block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const float* src = in + blockIdx.x * chunks * 256;
  if (producer) {
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    for (int c = 0; c < chunks; ++c) {
      pipe.producer_acquire();
      int j = c % stages;
      cuda::memcpy_async(warp, &buf[j][0], src + c * 256, sizeof(float) * 128, pipe);
      for (int k = threadIdx.x; k < 128; k += 32)
        cuda::memcpy_async(&buf[j][128 + k], src + c * 256 + 128 + k,
                           cuda::aligned_size_t<alignof(float)>(sizeof(float)), pipe);
      pipe.producer_commit();
    }
  } else {
    int t = threadIdx.y * 32 + threadIdx.x;
    float acc = 0.0f;
    for (int c = 0; c < chunks; ++c) {
      pipe.consumer_wait();
      int j = c % stages;
      for (int k = 0; k < 4; ++k) acc += buf[j][t * 4 + k] * static_cast<float>(c + 1);
      pipe.consumer_release();
    }
    out[blockIdx.x * 64 + t] = acc;
  }
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
  const int blocks = 3, chunks = 9;
  static int hi[blocks * chunks * 128], ho[blocks * 128];
  for (int i = 0; i < blocks * chunks * 128; ++i) hi[i] = (i * 37) % 1001 - 500;
  int *di, *dout;
  cudaMalloc(&di, sizeof hi);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
  unified<<<blocks, 128>>>(di, dout, chunks);
  printf("unified: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    long long s = 0;
    for (int t = 0; t < 128; ++t) s += ho[b * 128 + t] * (t + 1LL);
    printf("  block %d: out[0] %d out[127] %d weighted %lld\n", b, ho[b * 128], ho[b * 128 + 127], s);
  }

  const int pchunks = 11;
  static float hf[blocks * pchunks * 256], hfo[blocks * 64];
  for (int i = 0; i < blocks * pchunks * 256; ++i) hf[i] = 1.0f / (1 + i % 23) + (i % 9) * 0.5f;
  float *df, *dfo;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&dfo, sizeof hfo);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  partitioned<<<blocks, dim3(32, 3)>>>(df, dfo, pchunks);
  printf("partitioned: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(hfo, dfo, sizeof hfo, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    printf("  block %d: out[0] %a out[63] %a, hash of all %08x\n", b, hfo[b * 64], hfo[b * 64 + 63],
           hash_bits(hfo + b * 64, 64));
  }
  cudaFree(di);
  cudaFree(dout);
  cudaFree(df);
  cudaFree(dfo);
  return 0;
}
