// <cuda/barrier>: a __shared__ cuda::barrier<cuda::thread_scope_block> set up by one thread
// with init(), then over several phases: arrive() tokens and wait(std::move(token)) with
// work between, arrive_and_wait(), arrive(2) (one thread arriving for two),
// arrive_and_drop() (a warp leaving the barrier for good, the rest going on with fewer),
// max(). Each phase's data is read by other threads after it: wrong answers unless every
// wait lasts until its phase completes. Printed from the host.
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <cstdio>
#include <utility>

__global__ void phases(int* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[128];
  int t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  s[t] = t * 3 + static_cast<int>(blockIdx.x);
  auto token = bar.arrive();
  int mine = t * 7;  // work between the arrival and the wait
  bar.wait(std::move(token));
  int right = s[(t + 1) % n];
  bar.arrive_and_wait();  // everyone has read s
  s[t] = right + mine;
  bar.arrive_and_wait();
  out[blockIdx.x * n + t] = s[n - 1 - t];
  for (int r = 0; r < 5; ++r) {  // more phases, each reading what another thread wrote
    int v = s[(t + r + 1) % n];
    bar.arrive_and_wait();
    s[t] = v + r;
    bar.arrive_and_wait();
  }
  out[2 * 128 + blockIdx.x * n + t] = s[t];
}

// Even threads arrive for themselves and their odd neighbour, which does not arrive.
__global__ void update(int* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (t % 2 == 0) {
    s[t] = 100 + t;
    auto token = bar.arrive(2);
    bar.wait(std::move(token));
    out[t] = s[(t + 2) % blockDim.x];
  }
  __syncthreads();
  // Every thread again: the count started again at blockDim.x.
  s[t] = 200 + t;
  bar.arrive_and_wait();
  out[64 + t] = s[(t + 5) % blockDim.x];
}

// Warp 1 writes, drops out of the barrier and returns; warp 0 reads what it wrote, then
// goes on through phases that expect only its own 32 threads.
__global__ void drops(int* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t == 0) init(&bar, 64);
  __syncthreads();
  s[t] = t * t;
  if (t >= 32) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  int v = s[t + 32];
  bar.arrive_and_wait();
  s[t] = v + 1;
  bar.arrive_and_wait();
  out[t] = s[31 - t];
  bar.arrive_and_wait();
  s[t] = 0;
  bar.arrive_and_drop();  // everyone drops: this last phase still completes
  __syncwarp();
  out[32 + t] = s[(t + 1) % 32] + 5;
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * 128 * sizeof(int));
  int h[4 * 128];

  cudaMemset(d, 0, 4 * 128 * sizeof(int));
  phases<<<2, 128>>>(d);
  printf("phases: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(h, d, 4 * 128 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; ++b) {
    long long sum = 0, sum2 = 0;
    for (int i = 0; i < 128; ++i) sum += h[b * 128 + i] * (i + 1LL);
    for (int i = 0; i < 128; ++i) sum2 += h[256 + b * 128 + i] * (i + 1LL);
    printf("block %d: out[0] %d out[1] %d out[127] %d weighted %lld; after 5 more phases %d %d %d weighted %lld\n",
           b, h[b * 128], h[b * 128 + 1], h[b * 128 + 127], sum, h[256 + b * 128],
           h[256 + b * 128 + 1], h[256 + b * 128 + 127], sum2);
  }

  cudaMemset(d, 0, 4 * 128 * sizeof(int));
  update<<<1, 64>>>(d);
  printf("update: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(h, d, 128 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("even threads:");
  for (int i = 0; i < 64; i += 2) printf(" %d", h[i]);
  printf("\nodd threads (did not arrive):");
  for (int i = 1; i < 64; i += 2) printf(" %d", h[i]);
  printf("\nall threads:");
  for (int i = 64; i < 128; ++i) printf(" %d", h[i]);
  printf("\n");

  cudaMemset(d, 0, 4 * 128 * sizeof(int));
  drops<<<1, 64>>>(d);
  printf("drops: launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("warp 0 read:");
  for (int i = 0; i < 32; ++i) printf(" %d", h[i]);
  printf("\nafter the last drop:");
  for (int i = 32; i < 64; ++i) printf(" %d", h[i]);
  printf("\n");
  printf("max() %lld\n", static_cast<long long>(cuda::barrier<cuda::thread_scope_block>::max()));
  cudaFree(d);
  return 0;
}
