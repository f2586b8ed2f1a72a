// One launch, the process's first: every thread takes a ticket from one of 32
// counters (thread t from counter t % 32, with atomicAdd) and writes its index
// at that ticket's slot, as a stream-compaction filter does. The 32 counters
// share two cache lines, so on several cores each atomic waits for its line.
// The grid's first block pays for the emulator's fiber stacks, page faults
// and cold caches, many times a later block: the contention guard must
// measure the blocks after it (scripts/bench-contention with this program).
// 65536 blocks of 256 threads; the host checks every slot was written once.
#include <cuda_runtime.h>

#include <cstdio>

#define BLOCKS 65536
#define THREADS 256
#define COUNTERS 32

__global__ void tickets(int* counters, unsigned* slots, int each) {
  const int which = threadIdx.x % COUNTERS;
  const int ticket = atomicAdd(&counters[which], 1);
  if (ticket < each) slots[which * each + ticket] = blockIdx.x * blockDim.x + threadIdx.x + 1;
}

int main() {
  const int total = BLOCKS * THREADS, each = total / COUNTERS;
  int* counters;
  unsigned* slots;
  cudaMalloc(&counters, COUNTERS * sizeof(int));
  cudaMalloc(&slots, total * sizeof(unsigned));
  cudaMemset(counters, 0, COUNTERS * sizeof(int));
  cudaMemset(slots, 0, total * sizeof(unsigned));
  tickets<<<BLOCKS, THREADS>>>(counters, slots, each);
  unsigned* h = new unsigned[total];
  bool* seen = new bool[total]();
  cudaMemcpy(h, slots, total * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < total && ok; ++i) {
    const unsigned t = h[i] - 1;  // the thread that wrote slot i
    ok = h[i] != 0 && t < (unsigned)total && !seen[t] && (int)(t % THREADS) % COUNTERS == i / each;
    if (ok) seen[t] = true;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  delete[] h;
  delete[] seen;
  return ok ? 0 : 1;
}
