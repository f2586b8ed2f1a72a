// libcu++'s free atomic functions (atomic_fetch_add(&a, v), atomic_load_explicit,
// atomic_compare_exchange_strong, atomic_flag_test_and_set, ...) in device code, many
// threads at once, and <cuda/std/span>, <cuda/std/optional>, <cuda/std/variant>,
// <cuda/std/cassert>, <cuda/std/cfloat> in device code: a block-wide sum of a span's
// elements, counted with free functions; a ticket lock taken with the flag functions;
// a pointer atomic stepped with atomic_fetch_add; sizes of spans; every value printed
// from the host.
#include <cuda/std/atomic>
#include <cuda/std/cassert>
#include <cuda/std/cfloat>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/variant>
#include <cuda_runtime.h>

#include <cstdio>

struct Totals {
  cuda::std::atomic<int> sum;
  cuda::std::atomic<unsigned long long> bits;
  cuda::std::atomic<unsigned long long> flips;
  cuda::std::atomic<int> max_seen;
  cuda::std::atomic<long> swaps;
  cuda::std::atomic_flag lock;
  unsigned guarded;  // changed only under the lock
  cuda::std::atomic<int*> cursor;
  int slots[64];
};

__device__ int largest(cuda::std::span<const int> values) {
  int best = values.front();
  for (int v : values) best = v > best ? v : best;
  return best;
}

__global__ void work(const int* data, int n, Totals* t) {
  cuda::std::span<const int> all(data, n);
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::std::span<const int> mine = all.subspan(tid * 4, 4);
  int local = 0;
  for (int v : mine) local += v;
  cuda::std::atomic_fetch_add(&t->sum, local);
  // Each bit set once by each (their order between blocks is the GPU's timing, so the
  // OR and the XOR go to different words).
  cuda::std::atomic_fetch_or_explicit(&t->bits, 1ull << (tid % 64), cuda::std::memory_order_relaxed);
  atomic_fetch_xor(&t->flips, 1ull << ((tid * 7) % 64));  // found by argument-dependent lookup
  int seen = cuda::std::atomic_load_explicit(&t->max_seen, cuda::std::memory_order_acquire);
  int want = largest(mine);
  while (seen < want &&
         !cuda::std::atomic_compare_exchange_weak(&t->max_seen, &seen, want)) {
  }
  cuda::std::atomic_fetch_add(&t->swaps, 1L);
  // A lock on the flag: one thread at a time changes `guarded`.
  while (cuda::std::atomic_flag_test_and_set_explicit(&t->lock, cuda::std::memory_order_acquire)) {
  }
  t->guarded = t->guarded * 3 + 1;
  cuda::std::atomic_flag_clear_explicit(&t->lock, cuda::std::memory_order_release);
  // A pointer atomic stepped by one element a thread: every thread gets its own slot.
  int* slot = cuda::std::atomic_fetch_add(&t->cursor, 1);
  *slot = tid;
}

__global__ void views(long long* out) {
  int a[6] = {5, -3, 8, 1, 9, 2};
  cuda::std::span<int, 6> fixed(a);
  cuda::std::span<int> dynamic = fixed;
  cuda::std::span<int, 2> head = fixed.first<2>();
  auto tail = dynamic.last(3);
  auto middle = fixed.subspan<1, 3>();
  auto bytes = cuda::std::as_bytes(middle);
  out[0] = static_cast<long long>(sizeof(fixed)) * 100 + sizeof(dynamic);
  out[1] = head[0] * 10 + head.back();
  out[2] = tail.size() * 100 + tail[0] * 10 + tail.back();
  out[3] = static_cast<long long>(middle.extent) * 1000 + bytes.size() * 10 + (dynamic.extent == cuda::std::dynamic_extent);
  int sum = 0;
  for (auto it = dynamic.rbegin(); it != dynamic.rend(); ++it) sum = sum * 2 + *it;
  out[4] = sum;
  cuda::std::optional<int> maybe;
  out[5] = maybe.has_value() * 10 + maybe.value_or(-7);
  maybe = largest(dynamic);
  cuda::std::variant<int, float> either = 2.5f;
  out[6] = *maybe * 100 + static_cast<int>(cuda::std::get<float>(either) * 10) + either.index();
  assert(sum != 0);
  out[7] = static_cast<long long>(FLT_MANT_DIG) * 1000 + DBL_DIG;
  cuda::std::atomic<long> step{40};
  cuda::std::atomic_store(&step, 41L);  // a long: the value's type is deduced too
  out[8] = cuda::std::atomic_exchange(&step, 2L) * 10 + cuda::std::atomic_load(&step) +
           cuda::std::atomic_is_lock_free(&step) * 1000;
}

int main() {
  const int blocks = 4, threads = 16, n = blocks * threads * 4;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101 - 20;
  int* d;
  Totals* t;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&t, sizeof(Totals));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(t, 0, sizeof(Totals));
  int* first_slot = &t->slots[0];
  cudaMemcpy(&t->cursor, &first_slot, sizeof first_slot, cudaMemcpyHostToDevice);
  work<<<blocks, threads>>>(d, n, t);
  Totals r;
  cudaMemcpy(static_cast<void*>(&r), t, sizeof r, cudaMemcpyDeviceToHost);
  int expected = 0;
  for (int i = 0; i < n; ++i) expected += h[i];
  printf("sum %d (expected %d) bits %016llx flips %016llx max %d swaps %ld\n", r.sum.load(),
         expected, r.bits.load(), r.flips.load(), r.max_seen.load(), r.swaps.load());
  bool each_once = true;
  unsigned long long seen = 0;
  for (int i = 0; i < blocks * threads; ++i) seen |= 1ull << r.slots[i];
  each_once = seen == ~0ull;
  printf("guarded %u lock %d slots each once %d cursor at slot %ld\n", r.guarded,
         r.lock.test() ? 1 : 0, each_once ? 1 : 0,
         static_cast<long>(r.cursor.load() - first_slot));
  long long* v;
  cudaMalloc(&v, 9 * sizeof(long long));
  views<<<1, 1>>>(v);
  long long o[9];
  cudaMemcpy(o, v, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 9; ++i) printf("view %d %lld\n", i, o[i]);
  printf("status %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
