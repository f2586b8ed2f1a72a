// Inline PTX on shared memory through its own addresses, as cp.async code
// writes it: __cvta_generic_to_shared and cvta.to.shared, st.shared and
// ld.shared (scalar, vector, at an offset) on static and dynamic shared
// arrays, and cp.async (16 bytes through L2 only, 4 bytes with a zero-filled
// tail) with commit_group and wait_group. Each thread checks what it reads
// against plain C++ reads of the same arrays; the sums are printed.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kN = 128;

__global__ void window(const float4* gsrc, const int* gint, float* out, int* wrong_out) {
  __shared__ float tile[kN];
  __shared__ __align__(16) float4 staged[kN];
  extern __shared__ int dyn[];
  const int t = threadIdx.x;
  int wrong = 0;
  // A store through the shared window, a plain read of a neighbour's.
  const unsigned tile_at = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(tile_at), "f"(t * 0.5f) : "memory");
  // The same address from cvta.to.shared.
  unsigned long long from_ptx;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(from_ptx) : "l"(&tile[t]));
  wrong += from_ptx != tile_at;
  dyn[t] = 3 * t + 1;
  __syncthreads();
  wrong += tile[(t + 1) % kN] != ((t + 1) % kN) * 0.5f;
  // A load from the dynamic array at an offset from its base.
  const unsigned dyn_at = static_cast<unsigned>(__cvta_generic_to_shared(dyn));
  int v;
  const int k = (t + 5) % kN;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(dyn_at + 4 * k));
  wrong += v != 3 * k + 1;
  asm volatile("ld.shared.u32 %0, [%1+8];" : "=r"(v) : "r"(dyn_at + 4 * (k % (kN - 2))));
  wrong += v != 3 * (k % (kN - 2) + 2) + 1;
  // cp.async: 16 bytes a thread, then 4 bytes of which 2 come from global memory.
  const unsigned staged_at = static_cast<unsigned>(__cvta_generic_to_shared(&staged[t]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(staged_at), "l"(gsrc + t) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  const float4 s = staged[(t + 3) % kN], g = gsrc[(t + 3) % kN];
  wrong += s.x != g.x || s.y != g.y || s.z != g.z || s.w != g.w;
  float4 w;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(w.x), "=f"(w.y), "=f"(w.z), "=f"(w.w)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&staged[(t + 7) % kN]))));
  const float4 h = gsrc[(t + 7) % kN];
  wrong += w.x != h.x || w.y != h.y || w.z != h.z || w.w != h.w;
  __syncthreads();
  const unsigned part_at = static_cast<unsigned>(__cvta_generic_to_shared(&dyn[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, 2;" ::"r"(part_at), "l"(gint + t) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  wrong += dyn[t] != (gint[t] & 0xffff);
  out[t] = tile[t] + s.x + w.w;
  wrong_out[t] = wrong;
}

int main() {
  static float4 src[kN];
  static int ints[kN];
  for (int i = 0; i < kN; ++i) {
    src[i] = make_float4(i, -i, 0.25f * i, 1000.0f + i);
    ints[i] = 0x12340000 + 17 * i;
  }
  float4* d_src;
  int *d_ints, *d_wrong;
  float* d_out;
  cudaMalloc(&d_src, sizeof src);
  cudaMalloc(&d_ints, sizeof ints);
  cudaMalloc(&d_out, kN * sizeof(float));
  cudaMalloc(&d_wrong, kN * sizeof(int));
  cudaMemcpy(d_src, src, sizeof src, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ints, ints, sizeof ints, cudaMemcpyHostToDevice);
  window<<<2, kN, kN * sizeof(int)>>>(d_src, d_ints, d_out, d_wrong);
  float out[kN];
  int wrong[kN];
  cudaError_t err = cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost);
  printf("kernel: %s\n", cudaGetErrorName(err));
  int total = 0;
  double sum = 0;
  for (int i = 0; i < kN; ++i) {
    total += wrong[i];
    sum += out[i];
  }
  printf("reads that differ from plain C++ reads: %d\n", total);
  printf("sum %.3f\n", sum);
  return 0;
}
