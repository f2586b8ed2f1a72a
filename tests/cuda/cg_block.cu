// Cooperative groups, block level: thread_block and its members, this_thread_block(),
// cg::sync, a thread_group holding the block, and a block-wide memcpy_async + wait
// into shared memory. Every value is written to device memory and printed by the host.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void members(unsigned* out) {
  cg::thread_block b = cg::this_thread_block();
  unsigned r = b.thread_rank();
  unsigned lin = blockIdx.x + gridDim.x * blockIdx.y;
  unsigned* o = out + (lin * b.size() + r) * 12;
  dim3 gi = b.group_index();
  dim3 ti = b.thread_index();
  dim3 dt = b.dim_threads();
  dim3 gd = b.group_dim();
  o[0] = r;
  o[1] = b.size();
  o[2] = b.num_threads();
  o[3] = gi.x * 100 + gi.y * 10 + gi.z;
  o[4] = ti.x * 100 + ti.y * 10 + ti.z;
  o[5] = dt.x * 100 + dt.y * 10 + dt.z;
  o[6] = gd.x * 100 + gd.y * 10 + gd.z;
  cg::thread_group g = b;
  o[7] = g.thread_rank();
  o[8] = g.size();
  o[9] = g.size() * 2;
  o[10] = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  o[11] = 0;
}

// A block reduction whose barriers are cg::sync(block) and block.sync().
__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_rank();
  s[t] = in[blockIdx.x * 256 + t];
  cg::sync(block);
  for (unsigned o = 128; o > 0; o /= 2) {
    if (t < o) s[t] += s[t + o];
    if (o % 2 == 0) {
      block.sync();
    } else {
      cg::sync(block);
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// memcpy_async of the block's slice into shared memory, then cg::wait.
__global__ void staged(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * n, sizeof(float) * n);
  cg::wait(block);
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += tile[(k + block.thread_rank()) % n] * (k + 1);
  out[blockIdx.x * block.size() + block.thread_rank()] = acc;
}

int main() {
  // 2x2 grid of 4x2x2 blocks.
  const int blocks = 4, threads = 16;
  unsigned* d;
  cudaMalloc(&d, blocks * threads * 12 * sizeof(unsigned));
  members<<<dim3(2, 2), dim3(4, 2, 2)>>>(d);
  unsigned h[blocks * threads * 12];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * threads; ++i) {
    unsigned* o = h + i * 12;
    std::printf("t%02d rank %u size %u num %u gi %03u ti %03u dt %03u gd %03u g %u %u %u lin %u\n",
                i, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10]);
  }

  int hin[3 * 256];
  for (int i = 0; i < 3 * 256; ++i) hin[i] = (i * 37) % 101 - 50;
  int *din, *dout;
  cudaMalloc(&din, sizeof hin);
  cudaMalloc(&dout, 3 * sizeof(int));
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  block_sum<<<3, 256>>>(din, dout);
  int hout[3];
  cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  std::printf("block sums %d %d %d\n", hout[0], hout[1], hout[2]);

  const int n = 40, bt = 64, nb = 2;
  float fin[nb * n];
  for (int i = 0; i < nb * n; ++i) fin[i] = 0.25f * i - 3.0f;
  float *fd, *fo;
  cudaMalloc(&fd, sizeof fin);
  cudaMalloc(&fo, nb * bt * sizeof(float));
  cudaMemcpy(fd, fin, sizeof fin, cudaMemcpyHostToDevice);
  staged<<<nb, bt, n * sizeof(float)>>>(fd, fo, n);
  float fout[nb * bt];
  cudaMemcpy(fout, fo, sizeof fout, cudaMemcpyDeviceToHost);
  for (int b = 0; b < nb; ++b)
    std::printf("staged block %d: %a %a %a\n", b, fout[b * bt], fout[b * bt + 1], fout[b * bt + 63]);
  std::printf("errors %d\n", static_cast<int>(cudaGetLastError()));
  return 0;
}
