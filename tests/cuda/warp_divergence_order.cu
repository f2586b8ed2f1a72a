// In which order a divergent warp runs its paths: each lane takes a ticket from a
// shared counter (atomicAdd) on each path, so the tickets show which lanes went first.
// An if/else on odd and even lanes, an if without else followed by code all lanes run,
// a loop whose trip count differs between lanes followed by code after the loop, and a
// switch on lane % 3.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void order(int* out) {
  __shared__ int c;
  unsigned lane = threadIdx.x;
  if (lane == 0) c = 0;
  __syncwarp();
  int a = -1, b = -1, d = -1, e = -1, f = -1;
  if (lane & 1) {
    a = atomicAdd(&c, 1);
  } else {
    a = atomicAdd(&c, 1) + 1000;
  }
  __syncwarp();
  if (lane < 8) b = atomicAdd(&c, 1);
  d = atomicAdd(&c, 1);
  __syncwarp();
  int loops = 0;
  for (unsigned i = 0; i < lane % 4; ++i) loops += atomicAdd(&c, 1) * 0 + 1;
  e = atomicAdd(&c, 1);
  __syncwarp();
  switch (lane % 3) {
    case 0: f = atomicAdd(&c, 1); break;
    case 1: f = atomicAdd(&c, 1) + 1000; break;
    default: f = atomicAdd(&c, 1) + 2000; break;
  }
  out[lane * 6 + 0] = a;
  out[lane * 6 + 1] = b;
  out[lane * 6 + 2] = d;
  out[lane * 6 + 3] = e;
  out[lane * 6 + 4] = f;
  out[lane * 6 + 5] = loops;
}

int main() {
  int* d;
  cudaMalloc(&d, 32 * 6 * sizeof(int));
  order<<<1, 32>>>(d);
  int h[32 * 6];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[] = {"if_else", "if_then", "after_if", "after_loop", "switch", "loops"};
  for (int k = 0; k < 6; ++k) {
    printf("%s", names[k]);
    for (int l = 0; l < 32; ++l) printf(" %d", h[l * 6 + k]);
    printf("\n");
  }
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
