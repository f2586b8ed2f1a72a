// The pattern of a warp-aggregated-atomics benchmark (issue 17): every thread
// takes a ticket from one of `counters` counters (thread t uses counter
// t % counters), but the lanes of a warp that want the same counter first find
// each other with __match_any_sync, the lowest of them adds the group's size
// with one atomicAdd, and hands the old value to the others with a shuffle over
// the group's mask only (a partial-mask __shfl_sync); each lane's ticket is that
// value plus its rank in the group. As in a stream-compaction filter, the ticket
// is where the thread writes: slot `ticket` of its counter's part of the output
// gets the thread's index. 65536 blocks of 256 threads, for 32, 16, 8, 4, 2 and 1
// counters. The host checks that every slot was written once, by a thread of
// that counter, and prints each count. Which thread gets which ticket depends on
// the order the warps run in, so only the checks are printed. Its wall time is
// one of scripts/bench-warp's.
#include <cuda_runtime.h>

#include <cstdio>

#define BLOCKS 65536
#define THREADS 256

__device__ int take_ticket(int* counter) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned group = __match_any_sync(0xffffffffu, (unsigned long long)counter);
  const int leader = __ffs(group) - 1;
  int first = 0;
  if (lane == leader) first = atomicAdd(counter, __popc(group));
  first = __shfl_sync(group, first, leader);
  return first + __popc(group & ((1u << lane) - 1u));
}

__global__ void tickets(int* counters, unsigned* slots, int n, int each) {
  const int which = threadIdx.x % n;
  const int ticket = take_ticket(&counters[which]);
  const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
  // A ticket past the counter's share would be a wrong answer, not a fault.
  if (ticket >= 0 && ticket < each) slots[which * each + ticket] = me + 1;
}

int main() {
  const int total = BLOCKS * THREADS;
  int* counters;
  unsigned* slots;
  cudaMalloc(&counters, 32 * sizeof(int));
  cudaMalloc(&slots, total * sizeof(unsigned));
  unsigned* h_slots = new unsigned[total];
  bool* seen = new bool[total];
  bool all_ok = true;
  for (int n = 32; n >= 1; n /= 2) {
    const int each = total / n;
    cudaMemset(counters, 0, 32 * sizeof(int));
    cudaMemset(slots, 0, total * sizeof(unsigned));
    tickets<<<BLOCKS, THREADS>>>(counters, slots, n, each);
    int h_counters[32];
    cudaMemcpy(h_counters, counters, sizeof h_counters, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_slots, slots, total * sizeof(unsigned), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int c = 0; c < n; ++c) ok = ok && h_counters[c] == each;
    // Each slot of counter c holds a thread of counter c, and no thread twice.
    for (int i = 0; i < total; ++i) seen[i] = false;
    int written = 0;
    for (int i = 0; i < total; ++i) {
      const unsigned v = h_slots[i];
      if (v == 0) continue;
      const unsigned t = v - 1;
      if (t >= (unsigned)total || seen[t] || (int)(t % THREADS) % n != i / each) {
        ok = false;
        continue;
      }
      seen[t] = true;
      ++written;
    }
    ok = ok && written == total;
    printf("%2d counters: counter 0 = %d, %d of %d slots written once each, %s\n", n,
           h_counters[0], written, total, ok ? "PASS" : "FAIL");
    all_ok = all_ok && ok;
  }
  cudaFree(counters);
  cudaFree(slots);
  delete[] h_slots;
  delete[] seen;
  printf("%s\n", all_ok ? "PASS" : "FAIL");
  return all_ok ? 0 : 1;
}
