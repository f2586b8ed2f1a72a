// Inline PTX loads, stores, fences and barriers, then `trap`: vector loads
// through the non-coherent and cache-global paths at an offset, vector and
// volatile stores, acquire and release accesses, membar and fence, a block
// reduction whose barrier is `bar.sync 0`, `bar.warp.sync`, `nanosleep`;
// then a kernel in which one thread executes `trap;`: the error the host
// sees, and that it sticks.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void memory(const float* in, const unsigned* words, unsigned long long* out64, unsigned* flags,
                       float* sums) {
  const unsigned t = threadIdx.x;
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4+16];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(in + 4 * t));
  uint4 w;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w)
               : "l"(words + 4 * t));
  const unsigned long long lo = w.x ^ w.z, hi = w.y + w.w;
  asm volatile("st.global.v2.u64 [%0], {%1, %2};" ::"l"(out64 + 2 * t), "l"(lo), "l"(hi) : "memory");
  __shared__ float partial[256];
  partial[t] = v.x + v.y + v.z + v.w;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    asm volatile("bar.sync 0;" ::: "memory");
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
  // A release store and an acquire load of the same word, volatile ones too.
  if (t == 0) {
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flags + blockIdx.x), "r"(blockIdx.x + 100) : "memory");
    unsigned seen;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flags + blockIdx.x) : "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("st.volatile.global.u32 [%0+4096], %1;" ::"l"(flags + blockIdx.x), "r"(seen * 2) : "memory");
    unsigned again;
    asm volatile("ld.volatile.global.u32 %0, [%1+4096];" : "=r"(again) : "l"(flags + blockIdx.x));
    flags[blockIdx.x + 2048] = again + 1;
  }
  asm volatile("bar.warp.sync %0;" ::"r"(0xffffffffu));
  asm volatile("nanosleep.u32 %0;" ::"r"(100u));
}

__global__ void trapping(int* marks) {
  marks[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 5) asm volatile("trap;");
}

int main() {
  const int blocks = 4, threads = 256;
  static float in[blocks * threads * 4 + 4];
  static unsigned words[threads * 4];
  for (int i = 0; i < threads * 4 + 4; ++i) in[i] = 0.25f * (i % 97) - 3.0f;
  for (int i = 0; i < threads * 4; ++i) words[i] = 2654435761u * (i + 1);
  float *d_in, *d_sums;
  unsigned *d_words, *d_flags;
  unsigned long long* d_out64;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_words, sizeof words);
  cudaMalloc(&d_out64, threads * 2 * sizeof(unsigned long long));
  cudaMalloc(&d_flags, 4096 * sizeof(unsigned) * 2);
  cudaMalloc(&d_sums, blocks * sizeof(float));
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_words, words, sizeof words, cudaMemcpyHostToDevice);
  cudaMemset(d_flags, 0, 4096 * sizeof(unsigned) * 2);
  memory<<<blocks, threads>>>(d_in, d_words, d_out64, d_flags, d_sums);
  cudaError_t err = cudaDeviceSynchronize();
  printf("memory: %s\n", cudaGetErrorName(err));
  static unsigned long long out64[threads * 2];
  static unsigned flags[4096 * 2];
  float sums[blocks];
  cudaMemcpy(out64, d_out64, sizeof out64, cudaMemcpyDeviceToHost);
  cudaMemcpy(flags, d_flags, sizeof flags, cudaMemcpyDeviceToHost);
  cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
  unsigned long long h = 0xcbf29ce484222325ull;
  for (int i = 0; i < threads * 2; ++i) h = (h ^ out64[i]) * 0x100000001b3ull;
  // The same on the host: the words' pairs, and the tree sums of in[16 + i].
  bool stores_right = true;
  for (int t = 0; t < threads; ++t) {
    const unsigned* q = words + 4 * t;
    stores_right = stores_right && out64[2 * t] == (q[0] ^ q[2]) && out64[2 * t + 1] == static_cast<unsigned>(q[1] + q[3]);
  }
  float tree[threads];
  for (int t = 0; t < threads; ++t) {
    const float* x = in + 4 * t + 4;
    tree[t] = x[0] + x[1] + x[2] + x[3];
  }
  for (int stride = threads / 2; stride > 0; stride /= 2)
    for (int t = 0; t < stride; ++t) tree[t] += tree[t + stride];
  printf("vector stores: %016llx, %s\n", h, stores_right ? "as computed on the host" : "WRONG");
  for (int b = 0; b < blocks; ++b)
    if (sums[b] != tree[0]) printf("block %d: sum differs from the host's %a\n", b, tree[0]);
  for (int b = 0; b < blocks; ++b)
    printf("block %d: sum %a, flag %u, volatile %u, read back %u\n", b, sums[b], flags[b], flags[b + 1024],
           flags[b + 2048]);

  int* d_marks;
  cudaMalloc(&d_marks, 4 * 64 * sizeof(int));
  trapping<<<4, 64>>>(d_marks);
  err = cudaDeviceSynchronize();
  printf("trap: %s (%s)\n", cudaGetErrorName(err), cudaGetErrorString(err));
  printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  void* p = nullptr;
  printf("then cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
  return 0;
}
