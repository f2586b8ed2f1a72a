// Kernel launches spelled every way nvcc accepts: `<< <` and `>> >` with
// spaces (as clang-format writes them), a launch split across lines, launches
// inside macro bodies (with and without spaces), a template kernel, a kernel
// through a namespace, and a launch whose configuration holds a `>>` shift.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void put(int* out, int slot, int v) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[slot] = v + (int)(gridDim.x * 100 + blockDim.x);
}

template <int K>
__global__ void put_t(int* out, int slot) {
  if (threadIdx.x == 0) out[slot] = K;
}

namespace ns {
__global__ void put_ns(int* out, int slot) { out[slot] = 77; }
}  // namespace ns

#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
#define LAUNCH_SPACED(k, g, b, ...) k<< <g, b >> >(__VA_ARGS__)
#define LAUNCH_MULTILINE(k, g, b, ...) \
  k<<<g,                               \
      b>>>(__VA_ARGS__)

int main() {
  int* d;
  cudaMalloc(&d, 16 * sizeof(int));
  cudaMemset(d, 0, 16 * sizeof(int));
  put<< <1, 32 >> >(d, 0, 1);
  put<< < 2, 64 >> >(d, 1, 2);
  put<<<3,
        16>>>(d, 2,
              3);
  put
      <<<4, 8>>>
      (d, 3, 4);
  LAUNCH(put, 5, 4, d, 4, 5);
  LAUNCH_SPACED(put, 6, 2, d, 5, 6);
  LAUNCH_MULTILINE(put, 7, 1, d, 6, 7);
  put_t<42><< <1, 1 >> >(d, 7);
  ns::put_ns<< <1, 1 >> >(d, 8);
  int shift = 256;
  put<<<(shift >> 6), (shift >> 2)>>>(d, 9, 10);
  put<< <(shift >> 7), 32, 0, 0 >> >(d, 10, 11);
  cudaError_t e = cudaDeviceSynchronize();
  int h[16];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("sync %d\n", (int)e);
  for (int i = 0; i < 11; ++i) printf("slot %d = %d\n", i, h[i]);
  cudaFree(d);
  return 0;
}
