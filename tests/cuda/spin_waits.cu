// Threads and blocks that wait for one another by polling memory, as code written for
// a GPU does: nothing else makes the waiting thread give way, on the GPU its scheduler
// and in the emulator its polls (a volatile read, an atomic that leaves the word as it
// was, an atomic load).
//
// 1. flag_in_block: thread 0 of each block waits on a volatile flag that the block's
//    last thread (another warp) sets once it has written a value.
// 2. chain: block b waits on block b + 1's volatile flag, adds to its value and sets its
//    own flag: block 0 waits, through the chain, for the grid's last block.
// 3. grid_barrier: a grid-wide barrier written by hand, twice: every block adds to a
//    counter and polls it (atomicAdd of 0, then __nv_atomic_load_n with acquire) until
//    every block has come; between them each block reads what all the blocks wrote.
// 4. spin_lock: lane 0 of every warp of the grid takes a lock with atomicCAS, adds to a
//    volatile counter and gives the lock back with atomicExch.
// Each needs the blocks of its grid to run at once, as the H200 runs them (they fit).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void flag_in_block(volatile int* flags, volatile int* values, int* out) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x == blockDim.x - 1) {
    values[b] = 1000 + b;
    __threadfence_block();
    flags[b] = 1;
  }
  if (threadIdx.x == 0) {
    while (flags[b] == 0) {
    }
    out[b] = values[b];
  }
}

__global__ void chain(volatile int* flags, volatile long long* values) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x != 0) return;
  long long next = 0;
  if (b + 1 < gridDim.x) {
    while (flags[b + 1] == 0) {
    }
    next = values[b + 1];
  }
  values[b] = next * 3 + b + 1;
  __threadfence();
  flags[b] = 1;
}

__global__ void grid_barrier(unsigned* arrived, unsigned* sums, unsigned* seen) {
  __shared__ unsigned total;
  if (threadIdx.x == 0) {
    atomicAdd(&sums[blockIdx.x % 4], blockIdx.x * blockIdx.x + 1);
    __threadfence();
    atomicAdd(&arrived[0], 1u);
    while (atomicAdd(&arrived[0], 0u) < gridDim.x) {
    }
    total = atomicAdd(&sums[0], 0u) + atomicAdd(&sums[1], 0u) + atomicAdd(&sums[2], 0u) +
            atomicAdd(&sums[3], 0u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    seen[blockIdx.x] = total;
    __threadfence();
    atomicAdd(&arrived[1], 1u);
    while (__nv_atomic_load_n(&arrived[1], __NV_ATOMIC_ACQUIRE) < gridDim.x) {
    }
    unsigned agree = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) agree += seen[b] == total;
    seen[gridDim.x + blockIdx.x] = agree;
  }
}

__global__ void spin_lock(int* lock, volatile int* counter, int* order) {
  if (threadIdx.x % 32 != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  const int mine = *counter;
  *counter = mine + 1;
  __threadfence();
  atomicExch(lock, 0);
  order[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = mine;
}

int main() {
  const int blocks = 24;
  int *out, *block_flags, *block_values;
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMalloc(&block_flags, blocks * sizeof(int));
  cudaMalloc(&block_values, blocks * sizeof(int));
  cudaMemset(block_flags, 0, blocks * sizeof(int));
  flag_in_block<<<blocks, 96>>>(block_flags, block_values, out);
  int got[blocks];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  printf("flag_in_block:");
  for (int b = 0; b < blocks; ++b) printf(" %d", got[b]);
  printf("\n");

  const int links = 20;
  int* flags;
  long long* values;
  cudaMalloc(&flags, links * sizeof(int));
  cudaMalloc(&values, links * sizeof(long long));
  cudaMemset(flags, 0, links * sizeof(int));
  chain<<<links, 64>>>(flags, values);
  long long chained[links];
  cudaMemcpy(chained, values, sizeof chained, cudaMemcpyDeviceToHost);
  printf("chain: block 0 %lld, block %d %lld\n", chained[0], links - 1, chained[links - 1]);

  const unsigned grid = 96;
  unsigned *arrived, *sums, *seen;
  cudaMalloc(&arrived, 2 * sizeof(unsigned));
  cudaMalloc(&sums, 4 * sizeof(unsigned));
  cudaMalloc(&seen, 2 * grid * sizeof(unsigned));
  cudaMemset(arrived, 0, 2 * sizeof(unsigned));
  cudaMemset(sums, 0, 4 * sizeof(unsigned));
  grid_barrier<<<grid, 128>>>(arrived, sums, seen);
  unsigned seen_host[2 * grid];
  cudaMemcpy(seen_host, seen, sizeof seen_host, cudaMemcpyDeviceToHost);
  unsigned agreeing = 0;
  for (unsigned b = 0; b < grid; ++b) agreeing += seen_host[grid + b] == grid;
  printf("grid_barrier: every block saw %u (block 0 %u, block %u %u); %u of %u blocks saw "
         "every block agree\n",
         seen_host[0], seen_host[0], grid - 1, seen_host[grid - 1], agreeing, grid);

  const int lock_blocks = 40, warps = 4;
  int *lock, *counter, *order;
  cudaMalloc(&lock, sizeof(int));
  cudaMalloc(&counter, sizeof(int));
  cudaMalloc(&order, lock_blocks * warps * sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  spin_lock<<<lock_blocks, warps * 32>>>(lock, counter, order);
  int count;
  cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
  int taken[lock_blocks * warps];
  cudaMemcpy(taken, order, sizeof taken, cudaMemcpyDeviceToHost);
  bool each_once = true;
  for (int i = 0; i < lock_blocks * warps; ++i) {
    int n = 0;
    for (int j = 0; j < lock_blocks * warps; ++j) n += taken[j] == i;
    each_once = each_once && n == 1;
  }
  printf("spin_lock: counter %d for %d warps, each count taken once: %s\n", count,
         lock_blocks * warps, each_once ? "yes" : "no");
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
