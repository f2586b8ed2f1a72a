// The old warp-synchronous reduction: the last 32 elements are summed through
// volatile shared memory with no __syncwarp, relying on lock-step warps. It is
// wrong since Volta's independent thread scheduling, yet gives the right sum
// on the GPU in practice (2080 in the facts file). The emulator makes the
// volatile accesses of a warp's lanes in lock step (each lane's k-th before any
// lane's (k+1)-th), so it gives the same answer.
// The same reduction with __syncwarp between steps is right on both.
#include <cuda_runtime.h>

#include <cstdio>

__device__ void warp_reduce_legacy(volatile int* s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__device__ void warp_reduce_synced(volatile int* s, int t) {
  for (int o = 32; o > 0; o /= 2) {
    int v = s[t] + s[t + o];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
}

__global__ void reduce(const int* in, int* out, int legacy) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    if (legacy) {
      warp_reduce_legacy(s, t);
    } else {
      warp_reduce_synced(s, t);
    }
  }
  if (t == 0) *out = s[0];
}

int main() {
  int h[64];
  for (int k = 0; k < 64; ++k) h[k] = k + 1;
  int *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  int legacy = 0, synced = 0;
  reduce<<<1, 64>>>(d, o, 1);
  cudaMemcpy(&legacy, o, sizeof(int), cudaMemcpyDeviceToHost);
  reduce<<<1, 64>>>(d, o, 0);
  cudaMemcpy(&synced, o, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("legacy %d synced %d (true sum 2080)\n", legacy, synced);
  return 0;
}
