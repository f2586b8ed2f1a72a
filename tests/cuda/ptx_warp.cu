// Inline PTX with predicates and warp instructions, against the CUDA
// functions of the same meaning on the same device: setp (integer, unsigned
// and float comparisons, NaN included), selp, guarded instructions (@p,
// @!p), predicate logic, shfl.sync in all four modes at widths 32, 16 and 8,
// vote.sync ballot, all and any, redux.sync, match.sync, activemask. Each kernel thread computes
// both and counts where they differ; the results are also hashed.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kThreads = 256;
constexpr int kSlots = 24;

__global__ void warp_ptx(const unsigned* in, const float* fin, unsigned* out, int* differ) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned a = in[t], b = in[(t * 7 + 3) % kThreads];
  const float x = fin[t], y = fin[(t * 5 + 1) % kThreads];
  unsigned* o = out + t * kSlots;
  unsigned r;
  int wrong = 0;
  // setp + selp, integer signed and unsigned, float ordered and unordered.
  asm("{ .reg .pred p; setp.lt.s32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(a), "r"(b));
  o[0] = r;
  wrong += r != ((int)a < (int)b ? 1u : 0u);
  asm("{ .reg .pred p; setp.hi.u32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(a), "r"(b));
  o[1] = r;
  wrong += r != (a > b ? 1u : 0u);
  asm("{ .reg .pred p; setp.ne.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y));
  o[2] = r;
  wrong += r != ((x < y || x > y) ? 1u : 0u);
  asm("{ .reg .pred p; setp.neu.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y));
  o[3] = r;
  wrong += r != (x != y ? 1u : 0u);
  asm("{ .reg .pred p; setp.geu.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y));
  o[4] = r;
  wrong += r != (!(x < y) ? 1u : 0u);
  asm("{ .reg .pred p; setp.nan.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y));
  o[5] = r;
  wrong += r != ((isnan(x) || isnan(y)) ? 1u : 0u);
  // Guards and predicate logic.
  asm("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 0;\n\tsetp.gt.s32 q, %2, 100;\n\tand.pred p, p, q;\n"
      "\tmov.u32 %0, 7;\n\t@p mov.u32 %0, 11;\n\t@!q add.u32 %0, %0, 1000;\n\t}"
      : "=r"(r) : "r"(a & 3), "r"(b));
  o[6] = r;
  {
    const bool p = (a & 3) == 0, q = (int)b > 100;
    unsigned want = (p && q) ? 11 : 7;
    if (!q) want += 1000;
    wrong += r != want;
  }
  // Shuffles at three widths, each mode, against __shfl_*_sync.
  int k = 7;
  const unsigned full = 0xffffffffu;
  for (int width = 32; width >= 8; width /= 2) {
    const unsigned c = ((32u - width) << 8) | 31u, cu = (32u - width) << 8;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(5u), "r"(c), "r"(full));
    o[k++] = r;
    wrong += r != __shfl_xor_sync(full, a, 5, width);
    asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(3u), "r"(cu), "r"(full));
    o[k++] = r;
    wrong += r != __shfl_up_sync(full, a, 3, width);
    asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(2u), "r"(c), "r"(full));
    o[k++] = r;
    wrong += r != __shfl_down_sync(full, a, 2, width);
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b & 31), "r"(c), "r"(full));
    o[k++] = r;
    wrong += r != __shfl_sync(full, a, b & 31, width);
  }
  // Votes and the active mask.
  const bool odd = a & 1;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
               : "=r"(r) : "r"(a & 1), "r"(full));
  o[19] = r;
  wrong += r != __ballot_sync(full, odd);
  asm volatile("{ .reg .pred p, v; setp.ne.u32 p, %1, 0; vote.sync.any.pred v, p, %2; selp.u32 %0, 1, 0, v; }"
               : "=r"(r) : "r"(a & 1), "r"(full));
  o[20] = r;
  wrong += r != (__any_sync(full, odd) ? 1u : 0u);
  asm volatile("{ .reg .pred p, v; setp.ne.u32 p, %1, 0; vote.sync.all.pred v, p, %2; selp.u32 %0, 1, 0, v; }"
               : "=r"(r) : "r"(a | 1), "r"(full));
  o[21] = r;
  wrong += r != 1u;
  if (threadIdx.x % 32 < 20) {
    asm volatile("activemask.b32 %0;" : "=r"(r));
    o[22] = r;
    wrong += r != 0x000fffffu;
  } else {
    o[22] = 0;
  }
  __syncwarp();
  // Warp reductions and matches.
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(a & 0xffff), "r"(full));
  wrong += r != __reduce_add_sync(full, a & 0xffff);
  unsigned m;
  asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(m) : "r"(a), "r"(full));
  wrong += m != static_cast<unsigned>(__reduce_min_sync(full, static_cast<int>(a)));
  r ^= m;
  asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(m) : "r"(a), "r"(full));
  wrong += m != __reduce_xor_sync(full, a);
  r ^= m;
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(m) : "r"(a & 3), "r"(full));
  wrong += m != __match_any_sync(full, a & 3);
  r ^= m;
  int all = 0;
  asm volatile("{ .reg .pred p; match.all.sync.b32 %0|p, %2, %3; selp.s32 %1, 1, 0, p; }"
               : "=r"(m), "=r"(all) : "r"(threadIdx.x / 32), "r"(full));
  int want_all = 0;
  wrong += m != __match_all_sync(full, threadIdx.x / 32, &want_all);
  wrong += all != want_all;
  o[23] = r ^ m ^ static_cast<unsigned>(all);
  differ[t] = wrong;
}

int main() {
  static unsigned in[kThreads], out[kThreads * kSlots];
  static float fin[kThreads];
  static int differ[kThreads];
  unsigned s = 2463534242u;
  for (int i = 0; i < kThreads; ++i) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    in[i] = i < 8 ? (i * 97u) : s;
    float f = static_cast<float>(static_cast<int>(s % 2001) - 1000) / 8.0f;
    if (i % 17 == 3) f = NAN;
    if (i % 29 == 5) f = -0.0f;
    fin[i] = f;
  }
  unsigned *d_in, *d_out;
  float* d_fin;
  int* d_differ;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMalloc(&d_fin, sizeof fin);
  cudaMalloc(&d_differ, sizeof differ);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_fin, fin, sizeof fin, cudaMemcpyHostToDevice);
  warp_ptx<<<kThreads / 64, 64>>>(d_in, d_fin, d_out, d_differ);
  cudaError_t err = cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(differ, d_differ, sizeof differ, cudaMemcpyDeviceToHost);
  printf("kernel: %s\n", cudaGetErrorName(err));
  int total = 0;
  for (int i = 0; i < kThreads; ++i) total += differ[i];
  printf("results that differ from the CUDA functions': %d\n", total);
  for (int k = 0; k < kSlots; ++k) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (int i = 0; i < kThreads; ++i) h = (h ^ out[i * kSlots + k]) * 0x100000001b3ull;
    printf("slot %2d: %016llx\n", k, h);
  }
  return 0;
}
