// <cuda/pipeline>: the thread-scope helpers cuda::pipeline_consumer_wait_prior<N>(pipe)
// (every stage but the last N is complete) and cuda::pipeline_producer_commit(pipe, bar)
// (the stage's copies are bound to a barrier's phase: its wait covers them). Printed
// from the host.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void wait_prior(const int* in, int* out) {
  __shared__ int s[3][64];
  int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int k = 0; k < 3; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[k][t], &in[k * 64 + t], sizeof(int), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<2>(pipe);  // stage 0 is in
  int a = s[0][t];
  cuda::pipeline_consumer_wait_prior<0>(pipe);  // all three
  out[t] = a * 100 + s[1][t] * 10 + s[2][t];
}

__global__ void commit_to_barrier(const int* in, int* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[t], &in[t], sizeof(int), pipe);
  cuda::pipeline_producer_commit(pipe, bar);
  bar.arrive_and_wait();  // every thread's copy is in
  out[64 + t] = s[63 - t] + s[(t + 1) % 64];
}

int main() {
  int h[192];
  for (int i = 0; i < 192; ++i) h[i] = i % 10;
  int *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, 128 * sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  wait_prior<<<1, 64>>>(d, o);
  printf("wait_prior: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  commit_to_barrier<<<1, 64>>>(d, o);
  printf("commit to barrier: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  int r[128];
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; ++i) printf("%d%c", r[i], i % 16 == 15 ? '\n' : ' ');
  cudaFree(d);
  cudaFree(o);
  return 0;
}
