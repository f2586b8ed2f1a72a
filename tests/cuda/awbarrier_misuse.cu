// <cuda/barrier> and <cuda/pipeline> used against their rules (undefined behaviour on a
// GPU, so not run there): an arrival that counts more threads than a barrier's phase still expects, and a
// memcpy_async whose pointer is not aligned as its cuda::aligned_size_t promises. The
// emulator stops at the first, naming its line; argv[1] picks the case.
// gpu: skip
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

__global__ void too_many(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 32);
  __syncthreads();
  auto token = bar.arrive(threadIdx.x == 0 ? 40 : 1);  // thread 0 arrives for 40
  bar.wait(std::move(token));
  out[threadIdx.x] = 1;
}

__global__ void misaligned(const float* in, float* out) {
  __shared__ alignas(16) float s[64];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[1], in + 1, cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[1];
}

int main(int argc, char** argv) {
  int which = argc > 1 ? atoi(argv[1]) : 0;
  float* d;
  cudaMalloc(&d, 256 * sizeof(float));
  if (which == 0)
    too_many<<<1, 64>>>(reinterpret_cast<int*>(d));
  else
    misaligned<<<1, 32>>>(d, d + 128);
  printf("sync %d\n", cudaDeviceSynchronize());
  return 0;
}
