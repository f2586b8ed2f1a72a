// gpu: skip (an emulator compile check; nv_atomic_builtins is the GPU comparison)
// The __nv_atomic_* loads and stores on volatile and plain pointers, 1 to 16 bytes, in
// a program built for warp lock step (it has __shared__ memory, so its atomics meet
// their warp first): each compiles, and reads back what was stored.
#include <cuda_runtime.h>

#include <cstdio>

struct Pair {
  long long a, b;
};

__global__ void loads_and_stores(int* word, volatile int* flag, unsigned long long* wide,
                                 Pair* pair, short* half_word, int* out) {
  __shared__ int seen;
  seen = 0;
  __syncthreads();
  __nv_atomic_store_n(word, 5, __NV_ATOMIC_RELEASE);
  __nv_atomic_store_n(const_cast<int*>(flag), 6, __NV_ATOMIC_RELAXED);
  unsigned long long v = 7;
  __nv_atomic_store(wide, &v, __NV_ATOMIC_SEQ_CST);
  Pair p{1, 2};
  __nv_atomic_store(pair, &p, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_store_n(half_word, static_cast<short>(9), __NV_ATOMIC_RELAXED);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  Pair q;
  __nv_atomic_load(pair, &q, __NV_ATOMIC_ACQUIRE);
  unsigned long long w;
  __nv_atomic_load(wide, &w, __NV_ATOMIC_ACQUIRE);
  seen = __nv_atomic_load_n(flag, __NV_ATOMIC_ACQUIRE);
  out[0] = __nv_atomic_load_n(word, __NV_ATOMIC_RELAXED);
  out[1] = seen;
  out[2] = static_cast<int>(w);
  out[3] = static_cast<int>(q.a + q.b);
  out[4] = __nv_atomic_load_n(half_word, __NV_ATOMIC_RELAXED);
}

int main() {
  int *word, *flag, *out;
  unsigned long long* wide;
  Pair* pair;
  short* half_word;
  cudaMalloc(&word, sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 5 * sizeof(int));
  cudaMalloc(&wide, sizeof(unsigned long long));
  cudaMalloc(&pair, sizeof(Pair));
  cudaMalloc(&half_word, sizeof(short));
  loads_and_stores<<<1, 1>>>(word, flag, wide, pair, half_word, out);
  int got[5];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %d\n", got[0], got[1], got[2], got[3], got[4]);
  return 0;
}
