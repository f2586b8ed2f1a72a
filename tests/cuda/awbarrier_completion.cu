// <cuda/barrier>: a barrier with a completion function (cuda::barrier<thread_scope_block,
// F>): it runs once per phase, after every arrival and before any waiting thread goes
// on, and sees what the threads wrote before they arrived. Printed from the host.
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <cstdio>

struct Tally {
  int* phases;
  int* sums;
  const int* data;
  int n;
  __device__ void operator()() noexcept {
    int s = 0;
    for (int i = 0; i < n; ++i) s += data[i] * (i + 1);
    sums[*phases] = s;
    ++*phases;
  }
};

__global__ void tally(int* out) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block, Tally> bar;
  __shared__ int phases;
  __shared__ int sums[16];
  __shared__ int data[96];
  int t = threadIdx.x;
  if (t == 0) {
    phases = 0;
    init(&bar, blockDim.x, Tally{&phases, sums, data, static_cast<int>(blockDim.x)});
  }
  __syncthreads();
  for (int r = 0; r < 8; ++r) {
    data[t] = r * 1000 + t * (static_cast<int>(blockIdx.x) + 1);
    bar.arrive_and_wait();
    // The completion of this phase has run: phases is 2r + 1 for every thread here.
    if (phases != 2 * r + 1) atomicAdd(&out[34 + blockIdx.x], 1);
    bar.arrive_and_wait();  // nobody writes data before everyone checked
  }
  if (t < 16) out[blockIdx.x * 16 + t] = sums[t];
  if (t == 0) out[32 + blockIdx.x] = phases;
}

int main() {
  int* d;
  int h[40] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  tally<<<2, 96>>>(d);
  printf("launch %d sync %d\n", cudaGetLastError(), cudaDeviceSynchronize());
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; ++b) {
    printf("block %d: phases %d, wrong counts seen %d, sums", b, h[32 + b], h[34 + b]);
    for (int i = 0; i < 16; ++i) printf(" %d", h[b * 16 + i]);
    printf("\n");
  }
  cudaFree(d);
  return 0;
}
