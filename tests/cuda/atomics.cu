// Atomics: return-old semantics, wrap-around of atomicInc/atomicDec, and a
// CAS loop. Single-thread cases print every old value; many-thread cases print
// the final value and the sorted multiset of old values (any order of
// arrival gives the same multiset for these).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

struct Olds {
  int i[16];
  unsigned u[16];
  unsigned long long ull[8];
  long long ll[4];
  float f[4];
  double d[4];
};

__global__ void single(Olds* o, int* ci, unsigned* cu, unsigned long long* cull, long long* cll,
                       float* cf, double* cd) {
  // int
  o->i[0] = atomicAdd(&ci[0], 5);            // 10 -> 15
  o->i[1] = atomicAdd(&ci[1], 1);            // INT_MAX -> INT_MIN (wraps)
  o->i[2] = atomicSub(&ci[2], 7);            // 3 -> -4
  o->i[3] = atomicExch(&ci[3], 42);          // -1 -> 42
  o->i[4] = atomicMin(&ci[4], -5);           // 2 -> -5
  o->i[5] = atomicMax(&ci[5], -5);           // -9 -> -5
  o->i[6] = atomicCAS(&ci[6], 7, 8);         // 7 -> 8
  o->i[7] = atomicCAS(&ci[7], 6, 8);         // 7 stays
  o->i[8] = atomicAnd(&ci[8], 0x0ff0);       // 0x1234 -> 0x0230
  o->i[9] = atomicOr(&ci[9], 0x0f);          // 0x100 -> 0x10f
  o->i[10] = atomicXor(&ci[10], -1);         // 5 -> -6
  // unsigned
  o->u[0] = atomicInc(&cu[0], 3);            // 3 >= 3 -> 0
  o->u[1] = atomicInc(&cu[1], 3);            // 2 -> 3
  o->u[2] = atomicInc(&cu[2], 3);            // 7 > 3 -> 0
  o->u[3] = atomicDec(&cu[3], 3);            // 0 -> 3
  o->u[4] = atomicDec(&cu[4], 3);            // 9 > 3 -> 3
  o->u[5] = atomicDec(&cu[5], 3);            // 2 -> 1
  o->u[6] = atomicAdd(&cu[6], 1u);           // UINT_MAX -> 0
  o->u[7] = atomicSub(&cu[7], 1u);           // 0 -> UINT_MAX
  o->u[8] = atomicMin(&cu[8], 4u);           // 0xffffffff -> 4
  o->u[9] = atomicMax(&cu[9], 4u);           // 3 -> 4
  o->u[10] = atomicExch(&cu[10], 99u);
  o->u[11] = atomicCAS(&cu[11], 1u, 2u);     // 1 -> 2
  o->u[12] = atomicInc(&cu[12], 0xffffffffu);  // UINT_MAX-1 -> UINT_MAX
  o->u[13] = atomicInc(&cu[13], 0);          // 0 >= 0 -> 0
  o->u[14] = atomicDec(&cu[14], 0);          // 0 -> 0
  // unsigned long long
  o->ull[0] = atomicAdd(&cull[0], 1ull);     // max -> 0
  o->ull[1] = atomicExch(&cull[1], 5ull);
  o->ull[2] = atomicCAS(&cull[2], 3ull, 9ull);
  o->ull[3] = atomicMin(&cull[3], 2ull);
  o->ull[4] = atomicMax(&cull[4], 2ull);
  o->ull[5] = atomicAnd(&cull[5], 0xff00ull);
  o->ull[6] = atomicOr(&cull[6], 1ull << 40);
  o->ull[7] = atomicXor(&cull[7], 3ull);
  o->ll[0] = atomicMin(&cll[0], -3ll);
  o->ll[1] = atomicMax(&cll[1], -3ll);
  // float and double
  o->f[0] = atomicAdd(&cf[0], 0.5f);
  o->f[1] = atomicExch(&cf[1], 2.25f);
  o->d[0] = atomicAdd(&cd[0], 0.25);
}

// Many threads: counts, wrap-around and a CAS loop (float max).
__global__ void many(int* count, unsigned* inc, unsigned* dec, unsigned* inc_old, unsigned* dec_old,
                     float* fmax_cas, const float* vals, unsigned long long* sum) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(count, 1);
  inc_old[t] = atomicInc(inc, 9);
  dec_old[t] = atomicDec(dec, 9);
  // float max through atomicCAS on the bits
  int* addr = reinterpret_cast<int*>(fmax_cas);
  int old = *addr, assumed;
  do {
    assumed = old;
    float cur = __int_as_float(assumed);
    if (cur >= vals[t]) break;
    old = atomicCAS(addr, assumed, __float_as_int(vals[t]));
  } while (assumed != old);
  atomicAdd(sum, static_cast<unsigned long long>(t));
}

int main() {
  Olds* o;
  int* ci;
  unsigned* cu;
  unsigned long long* cull;
  long long* cll;
  float* cf;
  double* cd;
  cudaMalloc(&o, sizeof(Olds));
  cudaMalloc(&ci, 16 * sizeof(int));
  cudaMalloc(&cu, 16 * sizeof(unsigned));
  cudaMalloc(&cull, 8 * sizeof(unsigned long long));
  cudaMalloc(&cll, 4 * sizeof(long long));
  cudaMalloc(&cf, 4 * sizeof(float));
  cudaMalloc(&cd, 4 * sizeof(double));
  int hi[16] = {10, INT_MAX, 3, -1, 2, -9, 7, 7, 0x1234, 0x100, 5};
  unsigned hu[16] = {3, 2, 7, 0, 9, 2, 0xffffffffu, 0, 0xffffffffu, 3, 1, 1, 0xfffffffeu, 0, 0};
  unsigned long long hull[8] = {~0ull, 1, 3, 7, 1, 0xffffull, 1, 5};
  long long hll[4] = {-1, -9};
  float hf[4] = {1.5f, 0.0f};
  double hd[4] = {2.0};
  cudaMemcpy(ci, hi, sizeof hi, cudaMemcpyHostToDevice);
  cudaMemcpy(cu, hu, sizeof hu, cudaMemcpyHostToDevice);
  cudaMemcpy(cull, hull, sizeof hull, cudaMemcpyHostToDevice);
  cudaMemcpy(cll, hll, sizeof hll, cudaMemcpyHostToDevice);
  cudaMemcpy(cf, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(cd, hd, sizeof hd, cudaMemcpyHostToDevice);
  single<<<1, 1>>>(o, ci, cu, cull, cll, cf, cd);
  std::printf("launch: %s\n", cudaGetErrorString(cudaGetLastError()));
  Olds h;
  cudaMemcpy(&h, o, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, ci, sizeof hi, cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, cu, sizeof hu, cudaMemcpyDeviceToHost);
  cudaMemcpy(hull, cull, sizeof hull, cudaMemcpyDeviceToHost);
  cudaMemcpy(hll, cll, sizeof hll, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, cf, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, cd, sizeof hd, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 11; ++k) std::printf("int %2d: old %d new %d\n", k, h.i[k], hi[k]);
  for (int k = 0; k < 15; ++k) std::printf("unsigned %2d: old %u new %u\n", k, h.u[k], hu[k]);
  for (int k = 0; k < 8; ++k) std::printf("ull %d: old %llu new %llu\n", k, h.ull[k], hull[k]);
  for (int k = 0; k < 2; ++k) std::printf("ll %d: old %lld new %lld\n", k, h.ll[k], hll[k]);
  std::printf("float: old %a new %a; old %a new %a\n", h.f[0], hf[0], h.f[1], hf[1]);
  std::printf("double: old %a new %a\n", h.d[0], hd[0]);

  const int blocks = 4, threads = 64, n = blocks * threads;
  int* count;
  unsigned *inc, *dec, *inc_old, *dec_old;
  float *fm, *vals;
  unsigned long long* sum;
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&inc, sizeof(unsigned));
  cudaMalloc(&dec, sizeof(unsigned));
  cudaMalloc(&inc_old, n * sizeof(unsigned));
  cudaMalloc(&dec_old, n * sizeof(unsigned));
  cudaMalloc(&fm, sizeof(float));
  cudaMalloc(&vals, n * sizeof(float));
  cudaMalloc(&sum, sizeof(unsigned long long));
  cudaMemset(count, 0, sizeof(int));
  cudaMemset(inc, 0, sizeof(unsigned));
  cudaMemset(dec, 0, sizeof(unsigned));
  cudaMemset(sum, 0, sizeof(unsigned long long));
  std::vector<float> hv(n);
  for (int k = 0; k < n; ++k) hv[k] = static_cast<float>((k * 37) % 101) - 50.0f;
  float lowest = -1000.0f;
  cudaMemcpy(fm, &lowest, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(vals, hv.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  many<<<blocks, threads>>>(count, inc, dec, inc_old, dec_old, fm, vals, sum);
  std::printf("launch: %s\n", cudaGetErrorString(cudaGetLastError()));
  int hcount;
  unsigned hinc, hdec;
  float hfm;
  unsigned long long hsum;
  std::vector<unsigned> io(n), dol(n);
  cudaMemcpy(&hcount, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hinc, inc, sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hdec, dec, sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hfm, fm, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost);
  cudaMemcpy(io.data(), inc_old, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(dol.data(), dec_old, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::sort(io.begin(), io.end());
  std::sort(dol.begin(), dol.end());
  std::printf("count %d, atomicInc(9) final %u, atomicDec(9) final %u, CAS max %g, sum %llu\n",
              hcount, hinc, hdec, hfm, hsum);
  int hist_inc[10] = {0}, hist_dec[10] = {0};
  for (int k = 0; k < n; ++k) {
    ++hist_inc[io[k] % 10];
    ++hist_dec[dol[k] % 10];
  }
  std::printf("atomicInc olds per value:");
  for (int k = 0; k < 10; ++k) std::printf(" %d", hist_inc[k]);
  std::printf("\natomicDec olds per value:");
  for (int k = 0; k < 10; ++k) std::printf(" %d", hist_dec[k]);
  std::printf("\nmax old seen: inc %u dec %u\n", io.back(), dol.back());
  return 0;
}
