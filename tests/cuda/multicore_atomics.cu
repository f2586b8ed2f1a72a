// compare: multiset
// Integer (and exactly representable float) atomics from every block of a grid,
// and device printf from every block: the emulator runs blocks on several cores,
// and what this prints must not depend on how many (the test runs it with 1 and 2
// threads and compares the bytes; the H200's device lines come in another order,
// so that comparison is of the lines as a multiset). 96 blocks of 128 threads:
// sums, min/max, and/or/xor, a wrapping atomicInc, a CAS loop, 64-bit adds,
// tickets from atomicAdd's return (each handed out once), a shared-memory
// histogram added into a global one, and the "last block" reduction (each block
// writes its partial sum, __threadfence, takes a ticket; the block that takes the
// last one adds the partial sums in block order).
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kBlocks = 96;
constexpr int kThreads = 128;
constexpr int kN = kBlocks * kThreads;

struct Totals {
  int sum;
  unsigned usum;
  int min;
  int max;
  unsigned umax;
  unsigned bits_or;
  unsigned bits_and;
  unsigned bits_xor;
  unsigned wrap;
  int cas_sum;
  unsigned long long big;
  float fsum;
  unsigned done;
  int last_total;
  int hist[16];
};

__device__ int partial[kBlocks];
__device__ int tickets[kN];

__global__ void everything(Totals* t, int* next_ticket) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (i * 7919) % 1000 - 500;
  atomicAdd(&t->sum, v);
  atomicAdd(&t->usum, static_cast<unsigned>(i));
  atomicSub(&t->sum, 1);
  atomicMin(&t->min, v);
  atomicMax(&t->max, v);
  atomicMax(&t->umax, static_cast<unsigned>(i) * 2654435761u);
  atomicOr(&t->bits_or, 1u << (i % 32));
  atomicAnd(&t->bits_and, ~(1u << (i % 29)));
  atomicXor(&t->bits_xor, static_cast<unsigned>(i) * 40503u);
  atomicInc(&t->wrap, 999u);
  int seen = t->cas_sum, assumed;
  do {
    assumed = seen;
    seen = atomicCAS(&t->cas_sum, assumed, assumed + (i % 5));
  } while (seen != assumed);
  atomicAdd(&t->big, 0x100000000ull + static_cast<unsigned long long>(i));
  atomicAdd(&t->fsum, static_cast<float>(i % 3));  // small integers: exact in any order
  const int ticket = atomicAdd(next_ticket, 1);
  atomicAdd(&tickets[ticket], 1);

  __shared__ int hist[16];
  __shared__ int block_sum;
  if (threadIdx.x < 16) hist[threadIdx.x] = 0;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(&hist[(v + 500) % 16], 1);
  atomicAdd(&block_sum, v);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&t->hist[threadIdx.x], hist[threadIdx.x]);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = block_sum;
    __threadfence();
    const unsigned ticket_of_block = atomicInc(&t->done, kBlocks);
    if (ticket_of_block == kBlocks - 1) {
      int total = 0;
      for (int b = 0; b < kBlocks; ++b) total += atomicAdd(&partial[b], 0);
      t->last_total = total;
    }
    printf("block %d sum %d hist0 %d\n", blockIdx.x, block_sum, hist[0]);
  }
  if (threadIdx.x == kThreads - 1 && blockIdx.x % 8 == 0)
    printf("block %d last thread %d value %d\n", blockIdx.x, threadIdx.x, v);
}

int main() {
  Totals init = {};
  init.min = 1 << 30;
  init.max = -(1 << 30);
  init.bits_and = 0xffffffffu;
  Totals* t = nullptr;
  int* next = nullptr;
  cudaMalloc(&t, sizeof(Totals));
  cudaMalloc(&next, sizeof(int));
  cudaMemcpy(t, &init, sizeof init, cudaMemcpyHostToDevice);
  cudaMemset(next, 0, sizeof(int));
  everything<<<kBlocks, kThreads>>>(t, next);
  cudaError_t e = cudaDeviceSynchronize();
  Totals r;
  cudaMemcpy(&r, t, sizeof r, cudaMemcpyDeviceToHost);
  static int got[kN];
  cudaMemcpyFromSymbol(got, tickets, sizeof got);
  int once = 0;
  for (int k = 0; k < kN; ++k) once += got[k] == 1;
  std::printf("sync %d\n", static_cast<int>(e));
  std::printf("sum %d usum %u min %d max %d umax %u\n", r.sum, r.usum, r.min, r.max, r.umax);
  std::printf("or %08x and %08x xor %08x wrap %u cas %d\n", r.bits_or, r.bits_and, r.bits_xor,
              r.wrap, r.cas_sum);
  std::printf("big %llx fsum %a done %u last block total %d\n", r.big, r.fsum, r.done,
              r.last_total);
  std::printf("hist");
  for (int k = 0; k < 16; ++k) std::printf(" %d", r.hist[k]);
  std::printf("\ntickets handed out once %d of %d\n", once, kN);
  cudaFree(t);
  cudaFree(next);
  return 0;
}
