// Warps of one block that wait for one another through shared memory, with no barrier
// between: a volatile flag polled until another warp sets it (the waiter in a lower
// warp than the setter, and in a higher one), then a read of what the setter's warp
// wrote before setting it; the waiter clearing the flag again; a flag polled with
// atomicAdd(&flag, 0); a lock taken with atomicCAS that guards a shared total; the
// handoff with libcu++'s release store and acquire load in place of the fences. Each
// ends the same whatever the warps' timing, on the GPU and in the emulator, and the
// emulator says nothing about them (tests/testsuite/emulation.rs).
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdio>

// Warp 0 waits for warp 1 (wait_below) or warp 1 for warp 0 (wait_above).
__global__ void handoff(int* out, bool waiter_below) {
  __shared__ int data[32];
  __shared__ volatile int flag;
  const unsigned t = threadIdx.x, lane = t & 31;
  const bool setter = (t >= 32) == waiter_below;
  if (t == 0) flag = 0;
  __syncthreads();
  if (setter) {
    data[lane] = static_cast<int>(blockIdx.x * 100 + lane * 3);
    __threadfence_block();
    __syncwarp();
    if (lane == 31) flag = 1;
  } else {
    while (flag == 0) {
    }
    __threadfence_block();
    out[blockIdx.x * 32 + lane] = data[31 - lane];
    __syncwarp();
    if (lane == 0) flag = 2;  // the waiter takes the flag back
  }
}

// The same handoff with libcu++'s orders in place of the fences: a release store and
// an acquire load through cuda::atomic_ref on the shared flag.
__global__ void ordered_handoff(int* out) {
  __shared__ int data[32];
  __shared__ int flag;
  const unsigned t = threadIdx.x, lane = t & 31;
  if (t == 0) flag = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> ready(flag);
  if (t >= 32) {
    data[lane] = static_cast<int>(blockIdx.x * 100 + lane * 3);
    __syncwarp();
    if (lane == 31) ready.store(1, cuda::std::memory_order_release);
  } else {
    while (ready.load(cuda::std::memory_order_acquire) == 0) {
    }
    out[blockIdx.x * 32 + lane] = data[31 - lane];
  }
}

// Warp 2 waits, with atomicAdd(&ready, 0), for warps 0 and 1 to have added their lanes'
// values to a shared total under a lock taken with atomicCAS.
__global__ void locked_total(unsigned* out) {
  __shared__ unsigned total;
  __shared__ int lock;
  __shared__ unsigned ready;
  const unsigned t = threadIdx.x;
  if (t == 0) {
    total = 0;
    lock = 0;
    ready = 0;
  }
  __syncthreads();
  if (t < 64) {
    for (unsigned turn = 0; turn < 32; ++turn) {
      if ((t & 31) != turn) continue;  // one lane of each warp at a time
      while (atomicCAS(&lock, 0, 1) != 0) {
      }
      __threadfence_block();
      total += t * t + 1;
      __threadfence_block();
      atomicExch(&lock, 0);
    }
    if ((t & 31) == 31) atomicAdd(&ready, 1u);
  } else if (t == 64) {
    while (atomicAdd(&ready, 0u) != 2) {
    }
    __threadfence_block();
    out[blockIdx.x] = total;
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * 32 * sizeof(int));
  int h[4 * 32];
  for (int below = 1; below >= 0; --below) {
    handoff<<<4, 64>>>(d, below != 0);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < 4 * 32; ++i) sum = sum * 7 % 1000000007 + h[i];
    printf("handoff, waiter %s: %d %d %d, checksum %lld\n", below ? "below" : "above", h[0],
           h[33], h[127], sum);
  }
  ordered_handoff<<<4, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < 4 * 32; ++i) sum = sum * 7 % 1000000007 + h[i];
  printf("ordered handoff: %d %d %d, checksum %lld\n", h[0], h[33], h[127], sum);
  unsigned* u;
  cudaMalloc(&u, 4 * sizeof(unsigned));
  locked_total<<<4, 96>>>(u);
  unsigned totals[4];
  cudaMemcpy(totals, u, sizeof totals, cudaMemcpyDeviceToHost);
  printf("locked_total: %u %u %u %u\n", totals[0], totals[1], totals[2], totals[3]);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
