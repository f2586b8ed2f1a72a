// libcu++'s semaphores, latches and bit operations (<cuda/semaphore>, <cuda/latch>,
// <cuda/std/semaphore>, <cuda/std/latch>, <cuda/std/bit>); every value printed from the
// host, none depending on the order in which threads took their turns.
//
// 1. mutex: a cuda::binary_semaphore<device> (placement-new'd, count 1) guards a plain
//    counter that lane 0 of each of 4 warps of 8 blocks adds to;
// 2. handoff: blocks 0 to 4 each acquire a cuda::counting_semaphore<device, 8> that
//    starts at 0 and that block 5 releases 5 times: the five wait for the last block;
//    then try_acquire finds it empty; max() of both semaphores;
// 3. latch: a block-scope cuda::latch in shared memory (placement-new'd by thread 0):
//    every thread writes its word, counts down and waits, then reads its neighbour's;
//    a cuda::std::latch in global memory that 6 blocks' thread 0 arrive at and wait;
// 4. bits: popcount, countl_zero/one, countr_zero/one, has_single_bit, bit_width,
//    bit_ceil, bit_floor, rotl/rotr (negative counts too) of 8-, 16-, 32- and 64-bit
//    values, bit_cast between float and unsigned, endian.
#include <cuda/latch>
#include <cuda/semaphore>
#include <cuda/std/bit>
#include <cuda/std/latch>
#include <cuda/std/semaphore>
#include <cuda_runtime.h>

#include <cstdio>
#include <new>

using Mutex = cuda::binary_semaphore<cuda::thread_scope_device>;
using Pool = cuda::counting_semaphore<cuda::thread_scope_device, 8>;
using BlockLatch = cuda::latch<cuda::thread_scope_block>;

__global__ void make(Mutex* mutex, Pool* pool, cuda::std::latch* latch) {
  new (mutex) Mutex(1);
  new (pool) Pool(0);
  new (latch) cuda::std::latch(6);
}

__global__ void guarded(Mutex* mutex, int* counter) {
  if (threadIdx.x % 32 != 0) return;
  mutex->acquire();
  *counter = *counter + 1;
  mutex->release();
}

__global__ void handoff(Pool* pool, int* got) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == gridDim.x - 1) {
    for (int i = 0; i < 5; ++i) pool->release();
  } else {
    pool->acquire();
    atomicAdd(got, 1);
  }
}

__global__ void block_latch(int* out) {
  __shared__ alignas(16) unsigned char memory[sizeof(BlockLatch)];
  __shared__ int words[128];
  BlockLatch* latch = reinterpret_cast<BlockLatch*>(memory);
  if (threadIdx.x == 0) new (latch) BlockLatch(blockDim.x);
  __syncthreads();
  words[threadIdx.x] = threadIdx.x * 3 + blockIdx.x;
  latch->arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[(threadIdx.x + 1) % blockDim.x];
}

__global__ void grid_latch(cuda::std::latch* latch, int* flags, int* seen) {
  if (threadIdx.x != 0) return;
  flags[blockIdx.x] = blockIdx.x + 1;
  __threadfence();
  latch->count_down();
  latch->wait();
  int sum = 0;
  for (unsigned b = 0; b < gridDim.x; ++b) sum += *(volatile int*)&flags[b];
  seen[blockIdx.x] = sum + 100 * latch->try_wait();
}

__global__ void bits(unsigned long long* out) {
  const unsigned char c = 0x28;
  const unsigned short s = 0x8001;
  const unsigned u = 0x00f0f000u;
  const unsigned long long l = 0x8000000000000011ull;
  int i = 0;
  out[i++] = cuda::std::popcount(c) * 1000000 + cuda::std::popcount(s) * 10000 +
             cuda::std::popcount(u) * 100 + cuda::std::popcount(l);
  out[i++] = cuda::std::countl_zero(c) * 1000000 + cuda::std::countl_zero(s) * 10000 +
             cuda::std::countl_zero(u) * 100 + cuda::std::countl_zero(l);
  out[i++] = cuda::std::countr_zero(c) * 1000000 + cuda::std::countr_zero(s) * 10000 +
             cuda::std::countr_zero(u) * 100 + cuda::std::countr_zero(l);
  out[i++] = cuda::std::countl_one(static_cast<unsigned char>(0xe1)) * 1000000 +
             cuda::std::countl_one(s) * 10000 + cuda::std::countr_one(0x7u) * 100 +
             cuda::std::countr_one(~0ull);
  out[i++] = cuda::std::has_single_bit(c) * 1000 + cuda::std::has_single_bit(0x40u) * 100 +
             cuda::std::has_single_bit(0u) * 10 + cuda::std::has_single_bit(1ull);
  out[i++] = cuda::std::bit_width(0u) * 1000000 + cuda::std::bit_width(c) * 10000 +
             cuda::std::bit_width(u) * 100 + cuda::std::bit_width(l);
  out[i++] = cuda::std::bit_ceil(0u) + (cuda::std::bit_ceil(5u) << 8) +
             (static_cast<unsigned long long>(cuda::std::bit_ceil(static_cast<unsigned short>(0x4001))) << 16) +
             (static_cast<unsigned long long>(cuda::std::bit_floor(u)) << 32);
  out[i++] = cuda::std::bit_floor(0u) + (static_cast<unsigned long long>(cuda::std::bit_floor(l)) >> 40);
  out[i++] = cuda::std::rotl(c, 3) + (cuda::std::rotl(c, -3) << 8) +
             (static_cast<unsigned long long>(cuda::std::rotr(s, 4)) << 16) +
             (static_cast<unsigned long long>(cuda::std::rotr(s, -20)) << 32);
  out[i++] = cuda::std::rotl(u, 36) + (static_cast<unsigned long long>(cuda::std::rotr(u, 68)) << 32);
  out[i++] = cuda::std::rotl(l, 4);
  out[i++] = cuda::std::rotr(l, 65);
  out[i++] = cuda::std::bit_cast<unsigned>(-1.5f);
  out[i++] = cuda::std::bit_cast<unsigned long long>(cuda::std::bit_cast<double>(0x3ff8000000000000ull) * 2.0);
  out[i++] = cuda::std::endian::native == cuda::std::endian::little;
  out[31] = i;
}

int main() {
  Mutex* mutex;
  Pool* pool;
  cuda::std::latch* latch;
  int *counter, *got, *out, *flags, *seen;
  unsigned long long* bits_out;
  cudaMalloc(&mutex, 64);
  cudaMalloc(&pool, 64);
  cudaMalloc(&latch, 64);
  cudaMalloc(&counter, sizeof(int));
  cudaMalloc(&got, sizeof(int));
  cudaMalloc(&out, 4 * 128 * sizeof(int));
  cudaMalloc(&flags, 6 * sizeof(int));
  cudaMalloc(&seen, 6 * sizeof(int));
  cudaMalloc(&bits_out, 32 * sizeof(unsigned long long));
  cudaMemset(counter, 0, sizeof(int));
  cudaMemset(got, 0, sizeof(int));
  make<<<1, 1>>>(mutex, pool, latch);
  guarded<<<8, 128>>>(mutex, counter);
  handoff<<<6, 32>>>(pool, got);
  int h[2];
  cudaMemcpy(&h[0], counter, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&h[1], got, sizeof(int), cudaMemcpyDeviceToHost);
  printf("mutex counter %d, handoff acquired %d, max %td %td\n", h[0], h[1], Mutex::max(),
         Pool::max());

  block_latch<<<4, 128>>>(out);
  int o[4 * 128];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  long long sum = 0;
  bool right = true;
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 128; ++t) {
      sum += o[b * 128 + t];
      right = right && o[b * 128 + t] == ((t + 1) % 128) * 3 + b;
    }
  printf("block latch: sum %lld, every neighbour's word %s\n", sum, right ? "seen" : "WRONG");
  grid_latch<<<6, 32>>>(latch, flags, seen);
  int s[6];
  cudaMemcpy(s, seen, sizeof s, cudaMemcpyDeviceToHost);
  printf("grid latch:");
  for (int b = 0; b < 6; ++b) printf(" %d", s[b]);
  printf("\n");

  bits<<<1, 1>>>(bits_out);
  unsigned long long r[32];
  cudaMemcpy(r, bits_out, sizeof r, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < r[31]; ++i) printf("bits %u %016llx\n", i, r[i]);
  printf("status %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
