// libcu++'s atomics (<cuda/atomic>, <cuda/std/atomic>) as real code uses them; every
// line printed from the host, each a value that does not depend on the order in which
// threads took their turns.
//
// 1. the enumerators' values, atomics' sizes and alignments, is_always_lock_free (host);
// 2. chain: block b waits for block b + 1 with cuda::atomic_ref<int, device>::load
//    (acquire), then publishes its own value with store (release); again, waiting with
//    fetch_or(0) and a failing compare_exchange_weak;
// 3. shared: a __shared__ cuda::atomic<int, block> handing out tickets (fetch_add),
//    fetch_or / fetch_and / fetch_xor of a __shared__ cuda::std::atomic<unsigned>;
// 4. global: fetch_min / fetch_max through cuda::atomic_ref (int and unsigned), float
//    and double fetch_add / fetch_sub of exact values, exchange's old values summed;
// 5. locks: a spin lock taken with compare_exchange_strong by lane 0 of every warp,
//    one taken with cuda::std::atomic_flag::test_and_set (placement-new'd);
// 6. wait: block 0 waits in cuda::std::atomic<int>::wait until block 1 stores;
// 7. one thread: operators, wrap-around, unsigned char, pointers, an 8-byte struct,
//    compare_exchange_weak's failure writing the value seen, the fences, CTAD;
// 8. the same operations in host code.
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>
#include <new>

struct Pair {
  int a;
  int b;
};
struct Sixteen {
  long long a;
  long long b;
};
struct Three {
  char c[3];
};
struct Twelve {
  int i[3];
};

__global__ void chain(int* flags, long long* values) {
  const unsigned b = blockIdx.x;
  long long next = 0;
  if (b + 1 < gridDim.x) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(flags[b + 1]);
    while (ready.load(cuda::memory_order_acquire) == 0) {
    }
    next = values[b + 1];
  }
  values[b] = next * 3 + b + 1;
  cuda::atomic_ref<int, cuda::thread_scope_device> mine(flags[b]);
  mine.store(1, cuda::memory_order_release);
}

// The same chain, waiting by read-modify-writes that leave the flag as it is: a
// fetch_or of 0 (even blocks), a compare_exchange_weak of 1 for 1 that fails until the
// flag is set (odd blocks).
__global__ void chain_rmw(int* flags, long long* values) {
  const unsigned b = blockIdx.x;
  long long next = 0;
  if (b + 1 < gridDim.x) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(flags[b + 1]);
    if (b % 2 == 0) {
      while (ready.fetch_or(0) == 0) {
      }
    } else {
      int one = 1;
      while (!ready.compare_exchange_weak(one, 1)) one = 1;
    }
    next = values[b + 1];
  }
  values[b] = next * 5 + b + 2;
  cuda::atomic_ref<int, cuda::thread_scope_device>(flags[b]).exchange(1);
}

__global__ void shared(int* bad, unsigned* bits) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> tickets;
  __shared__ cuda::std::atomic<unsigned> mask;
  __shared__ int seen[256];
  if (threadIdx.x == 0) {
    tickets.store(0, cuda::memory_order_relaxed);
    mask.store(0);
  }
  seen[threadIdx.x] = 0;
  __syncthreads();
  int t = tickets.fetch_add(1, cuda::memory_order_relaxed);
  atomicAdd(&seen[t], 1);
  mask.fetch_or(1u << (threadIdx.x % 32));
  __syncthreads();
  if (seen[threadIdx.x] != 1) atomicAdd(bad, 1);
  if (threadIdx.x == 0) bits[blockIdx.x * 3] = mask.load();
  __syncthreads();
  mask.fetch_and(~(1u << (threadIdx.x % 16)));
  __syncthreads();
  if (threadIdx.x == 0) bits[blockIdx.x * 3 + 1] = mask.load();
  __syncthreads();
  mask.fetch_xor(threadIdx.x * 2654435761u);
  __syncthreads();
  if (threadIdx.x == 0) bits[blockIdx.x * 3 + 2] = mask.load();
}

__global__ void globals(int* imin, int* imax, unsigned* umin, float* f, double* d,
                       unsigned long long* x, unsigned long long* olds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (i * 37) % 101 - 50;
  cuda::atomic_ref<int, cuda::thread_scope_device>(*imin).fetch_min(v);
  cuda::atomic_ref<int, cuda::thread_scope_device>(*imax).fetch_max(v);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*umin).fetch_min(static_cast<unsigned>(v));
  cuda::atomic_ref<float, cuda::thread_scope_device> fr(*f);
  fr.fetch_add(0.5f);
  fr.fetch_sub(0.25f);
  cuda::atomic_ref<double> dr(*d);
  dr.fetch_add(0.125);
  cuda::atomic_ref<unsigned long long> xr(*x);
  atomicAdd(olds, xr.exchange(static_cast<unsigned long long>(i) * 1000003ull));
}

__global__ void locks(int* lock, int* counter, cuda::std::atomic_flag* flag, int* counter2) {
  if (threadIdx.x % 32 != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
  int expected = 0;
  while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                    cuda::memory_order_relaxed))
    expected = 0;
  *counter = *counter + 1;
  l.store(0, cuda::memory_order_release);
  while (flag->test_and_set(cuda::std::memory_order_acquire)) {
  }
  *counter2 = *counter2 + 3;
  flag->clear(cuda::std::memory_order_release);
}

__global__ void make_flag(cuda::std::atomic_flag* flag, cuda::std::atomic<int>* a) {
  new (flag) cuda::std::atomic_flag();
  new (a) cuda::std::atomic<int>(0);
}

__global__ void waiting(cuda::std::atomic<int>* a, int* data, int* out) {
  if (blockIdx.x == 0) {
    a->wait(0, cuda::std::memory_order_acquire);
    out[0] = data[0] + 1;
  } else {
    data[0] = 41;
    a->store(1, cuda::std::memory_order_release);
    a->notify_all();
  }
}

// Where one thread's results go, in turn.
struct Sink {
  int* at;
  int n;
  __host__ __device__ void operator()(int v) { at[n++] = v; }
};

// One thread's sequence of operations, each result written out in turn.
__host__ __device__ void sequence(Sink& out) {
  cuda::atomic<int> a(10);
  out(++a);
  out(a++);
  out(a += 5);
  out(a -= 2);
  out(a &= ~1);
  out(a |= 8);
  out(a ^= 3);
  out(--a);
  out(a--);
  out(a = 7);
  out(static_cast<int>(a));
  out(a.exchange(-4));
  out(a.fetch_min(-9));
  out(a.fetch_max(100));
  out(a.load());
  cuda::atomic<int> w(INT_MAX);
  out(w.fetch_add(1));
  out(w.load());
  cuda::atomic<unsigned char> c(250);
  out(c.fetch_add(10));
  out(c.load());
  cuda::atomic<unsigned> u(0);
  out(static_cast<int>(u.fetch_sub(1)));
  out(static_cast<int>(u.load() >> 16));
  int array[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  cuda::std::atomic<int*> p(array);
  out(static_cast<int>((p += 3) - array));
  out(static_cast<int>(p++ - array));
  out(static_cast<int>(p.fetch_sub(2) - array));
  out(*p.load());
  cuda::atomic<Pair> pair(Pair{1, 2});
  Pair expected{1, 3};
  out(pair.compare_exchange_weak(expected, Pair{5, 6}) ? 1 : 0);
  out(expected.b);
  out(pair.compare_exchange_strong(expected, Pair{5, 6}, cuda::memory_order_acq_rel,
                                   cuda::memory_order_relaxed)
          ? 1
          : 0);
  out(pair.load().a * 10 + pair.load().b);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
  cuda::std::atomic_thread_fence(cuda::std::memory_order_acq_rel);
  int plain = 3;
  cuda::atomic_ref deduced{plain};
  out(deduced.fetch_add(4));
  out(plain);
  cuda::std::atomic<bool> flag(false);
  out(flag.exchange(true) ? 1 : 0);
  out(flag.load() ? 1 : 0);
}

__global__ void one_thread(int* out) {
  Sink sink{out, 0};
  sequence(sink);
  out[63] = sink.n;
}

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      printf("%s: %s\n", #x, cudaGetErrorString(e));                                   \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

int main() {
  printf("scopes system %d device %d block %d thread %d\n", (int)cuda::thread_scope_system,
         (int)cuda::thread_scope_device, (int)cuda::thread_scope_block,
         (int)cuda::thread_scope_thread);
  printf("orders %d %d %d %d %d %d\n", (int)cuda::std::memory_order_relaxed,
         (int)cuda::std::memory_order_consume, (int)cuda::std::memory_order_acquire,
         (int)cuda::std::memory_order_release, (int)cuda::memory_order_acq_rel,
         (int)cuda::memory_order_seq_cst);
  printf("sizes char %zu/%zu short %zu/%zu int %zu/%zu llong %zu/%zu pair %zu/%zu sixteen %zu/%zu\n",
         sizeof(cuda::atomic<char>), alignof(cuda::atomic<char>), sizeof(cuda::atomic<short>),
         alignof(cuda::atomic<short>), sizeof(cuda::atomic<int>), alignof(cuda::atomic<int>),
         sizeof(cuda::std::atomic<long long>), alignof(cuda::std::atomic<long long>),
         sizeof(cuda::atomic<Pair>), alignof(cuda::atomic<Pair>), sizeof(cuda::atomic<Sixteen>),
         alignof(cuda::atomic<Sixteen>));
  printf("sizes three %zu/%zu twelve %zu/%zu\n", sizeof(cuda::atomic<Three>),
         alignof(cuda::atomic<Three>), sizeof(cuda::atomic<Twelve>), alignof(cuda::atomic<Twelve>));
  printf("lock free char %d int %d llong %d pair %d three %d twelve %d sixteen %d\n",
         (int)cuda::atomic<char>::is_always_lock_free, (int)cuda::atomic<int>::is_always_lock_free,
         (int)cuda::std::atomic<long long>::is_always_lock_free,
         (int)cuda::atomic<Pair>::is_always_lock_free, (int)cuda::atomic<Three>::is_always_lock_free,
         (int)cuda::atomic<Twelve>::is_always_lock_free,
         (int)cuda::atomic<Sixteen>::is_always_lock_free);

  const int blocks = 16;
  int* flags;
  long long* values;
  CHECK(cudaMalloc(&flags, blocks * sizeof(int)));
  CHECK(cudaMalloc(&values, blocks * sizeof(long long)));
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)));
  chain<<<blocks, 1>>>(flags, values);
  long long v0 = 0;
  CHECK(cudaMemcpy(&v0, values, sizeof v0, cudaMemcpyDeviceToHost));
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)));
  chain_rmw<<<blocks, 1>>>(flags, values);
  long long v1 = 0;
  CHECK(cudaMemcpy(&v1, values, sizeof v1, cudaMemcpyDeviceToHost));
  printf("chain %lld %lld\n", v0, v1);

  int* bad;
  unsigned* bits;
  CHECK(cudaMalloc(&bad, sizeof(int)));
  CHECK(cudaMalloc(&bits, 4 * 3 * sizeof(unsigned)));
  CHECK(cudaMemset(bad, 0, sizeof(int)));
  shared<<<4, 256>>>(bad, bits);
  int hbad = -1;
  unsigned hbits[12];
  CHECK(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hbits, bits, sizeof hbits, cudaMemcpyDeviceToHost));
  printf("shared tickets wrong %d, masks %08x %08x %08x %08x\n", hbad, hbits[0], hbits[1],
         hbits[2], hbits[11]);

  struct Globals {
    int imin, imax;
    unsigned umin;
    float f;
    double d;
    unsigned long long x, olds;
  } init = {INT_MAX, INT_MIN, 0xffffffffu, 1.0f, 0.0, 7, 0}, got;
  Globals* g;
  CHECK(cudaMalloc(&g, sizeof(Globals)));
  CHECK(cudaMemcpy(g, &init, sizeof init, cudaMemcpyHostToDevice));
  globals<<<8, 128>>>(&g->imin, &g->imax, &g->umin, &g->f, &g->d, &g->x, &g->olds);
  CHECK(cudaMemcpy(&got, g, sizeof got, cudaMemcpyDeviceToHost));
  printf("global min %d max %d umin %u float %.9g double %.17g exchanged %llu\n", got.imin,
         got.imax, got.umin, got.f, got.d, got.olds + got.x);

  int* counters;
  cuda::std::atomic_flag* flag;
  cuda::std::atomic<int>* waited;
  CHECK(cudaMalloc(&counters, 3 * sizeof(int)));
  CHECK(cudaMalloc(&flag, 64));
  CHECK(cudaMalloc(&waited, 64));
  CHECK(cudaMemset(counters, 0, 3 * sizeof(int)));
  make_flag<<<1, 1>>>(flag, waited);
  locks<<<8, 128>>>(&counters[0], &counters[1], flag, &counters[2]);
  int hc[3];
  CHECK(cudaMemcpy(hc, counters, sizeof hc, cudaMemcpyDeviceToHost));
  printf("locks counter %d flag counter %d\n", hc[1], hc[2]);

  int* data;
  CHECK(cudaMalloc(&data, 2 * sizeof(int)));
  waiting<<<2, 1>>>(waited, data, data + 1);
  int waited_for = 0;
  CHECK(cudaMemcpy(&waited_for, data + 1, sizeof(int), cudaMemcpyDeviceToHost));
  printf("wait saw %d\n", waited_for);

  int* out;
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  one_thread<<<1, 1>>>(out);
  int hout[64];
  CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  printf("device sequence:");
  for (int i = 0; i < hout[63]; ++i) printf(" %d", hout[i]);
  printf("\n");
  Sink host{hout, 0};
  sequence(host);
  printf("host sequence:  ");
  for (int i = 0; i < host.n; ++i) printf(" %d", hout[i]);
  printf("\n");
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
