// The shapes of kernel the CPU emulator runs as loops over a warp's lanes
// (src/emulate/lane_loops/), each checked on the host: warp reductions in a 2-D
// block, a partial last warp, lanes that return before the warp's shuffles, `auto`
// and array locals, several declarators, a parameter each thread changes, an `if`
// and a `while` of the warp's, votes, matches (with __match_all_sync's predicate),
// reductions, and device printf between warp operations. Prints each check's
// result; with an argument, runs a kernel whose loop condition differs between
// lanes though it looks the same for all (the emulator must stop, naming it).
// Not recorded on a GPU yet: tests/cuda/run-on-gpu.sh warp_lane_loops records it.
#include <cuda_runtime.h>

#include <cstdio>

#define FULL 0xffffffffu

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}

// A 16x8 block: each warp is rows 2w and 2w+1; each warp sums its lanes' values.
__global__ void sums_2d(const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned v = in[blockIdx.x * 128 + t];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(FULL, v, offset);
  if (t % 32 == 0) out[blockIdx.x * 4 + t / 32] = v;
}

// 48 threads a block: the second warp has 16 lanes. Lanes past n return first.
__global__ void partial(const unsigned* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned lane = threadIdx.x % 32;
  const unsigned live = __ballot_sync(FULL, 1);
  unsigned v = in[i];
  unsigned up = __shfl_up_sync(live, v, 1);
  if (lane > 0) v += up;
  out[i] = v * 1000u + __popc(live);
}

// auto, arrays, several declarators, direct initialization, a changed parameter.
__global__ void locals(unsigned* out, unsigned seed) {
  seed += threadIdx.x;
  auto lane = threadIdx.x % 32u;
  unsigned hist[4];
  int a = 1, b = 2;
  unsigned x(mix(seed));
  for (int k = 0; k < 4; ++k) hist[k] = 0;
  for (int round = 0; round < 8; ++round) {
    const unsigned got = __shfl_sync(FULL, x, (lane + round) % 32);
    hist[got % 4] += 1;
    x = mix(x + got);
    a += b;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      hist[0] | hist[1] << 8 | hist[2] << 16 | hist[3] << 24 ^ static_cast<unsigned>(a) ^ seed;
}

// A branch and a loop of the warp's (their conditions are the block's).
__global__ void branches(unsigned* out, int rounds) {
  unsigned v = mix(blockIdx.x * blockDim.x + threadIdx.x);
  if (blockIdx.x % 2 == 0) {
    v += __shfl_down_sync(FULL, v, 1);
  } else {
    v ^= __shfl_xor_sync(FULL, v, 3, 8);
  }
  int round = 0;
  while (round < rounds) {
    v = mix(v) + __shfl_sync(FULL, v, round % 32);
    ++round;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Votes, matches and reductions.
__global__ void votes(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned key = mix(lane + 32 * blockIdx.x) % 5;
  const unsigned ballot = __ballot_sync(FULL, key == 0);
  const int any = __any_sync(FULL, key == 4);
  const int all = __all_sync(FULL, key < 5);
  const unsigned same = __match_any_sync(FULL, key);
  int pred = -1;
  const unsigned every = __match_all_sync(FULL, blockIdx.x, &pred);
  const unsigned sum = __reduce_add_sync(FULL, key);
  const unsigned biggest = __reduce_max_sync(FULL, key * lane);
  out[blockIdx.x * 32 + lane] = ballot ^ (any << 1) ^ (all << 2) ^ same ^ every ^ (pred << 3) ^
                                sum ^ (biggest << 20);
  if (lane < 2) printf("block %u lane %u: key %u, group 0x%08x\n", blockIdx.x, lane, key, same);
}

__device__ int differs() { return threadIdx.x % 2; }

// The loop's condition calls a function: the emulator takes it to be the same for
// every lane, and it is not.
__global__ void disagree(unsigned* out) {
  unsigned v = threadIdx.x;
  for (int i = 0; i < 1 + differs(); ++i) v += __shfl_xor_sync(FULL, v, 1);
  out[threadIdx.x] = v;
}

unsigned host_mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}

int main(int argc, char**) {
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, 4096 * sizeof(unsigned));
  cudaMalloc(&d_out, 4096 * sizeof(unsigned));
  unsigned in[4096], out[4096];
  for (int i = 0; i < 4096; ++i) in[i] = host_mix(i + 7) % 1000;
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  if (argc > 1) {
    disagree<<<1, 32>>>(d_out);
    printf("disagree: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
  }

  sums_2d<<<4, dim3(16, 8)>>>(d_in, d_out);
  cudaMemcpy(out, d_out, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int w = 0; w < 16; ++w) {
    unsigned s = 0;
    for (int l = 0; l < 32; ++l) s += in[w * 32 + l];
    ok = ok && out[w] == s;
  }
  printf("sums_2d: %s (first %u)\n", ok ? "PASS" : "FAIL", out[0]);

  const int n = 85;  // 2 blocks of 48: the last warp of block 1 has 5 live lanes
  cudaMemset(d_out, 0xff, 96 * sizeof(unsigned));
  partial<<<2, 48>>>(d_in, d_out, n);
  cudaMemcpy(out, d_out, 96 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  ok = true;
  for (int i = 0; i < 96; ++i) {
    const int block_first = i / 48 * 48, warp_first = block_first + (i - block_first) / 32 * 32;
    const int warp_end = warp_first + 32 < block_first + 48 ? warp_first + 32 : block_first + 48;
    const int live = (warp_end < n ? warp_end : n) - warp_first;
    unsigned want = i >= n ? 0xffffffffu
                           : (in[i] + (i > warp_first ? in[i - 1] : 0)) * 1000u + live;
    ok = ok && out[i] == want;
  }
  printf("partial: %s (out[84] %u)\n", ok ? "PASS" : "FAIL", out[84]);

  locals<<<2, 64>>>(d_out, 12345u);
  cudaMemcpy(out, d_out, 128 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  ok = true;
  for (int t = 0; t < 128; ++t) {
    const int w = t / 32;
    unsigned x[32], hist[4] = {0, 0, 0, 0};
    for (int l = 0; l < 32; ++l) x[l] = host_mix(12345u + (w * 32 + l) % 64);
    int a = 1;
    for (int round = 0; round < 8; ++round) {
      unsigned got[32];
      for (int l = 0; l < 32; ++l) got[l] = x[(l + round) % 32];
      hist[got[t % 32] % 4] += 1;
      for (int l = 0; l < 32; ++l) x[l] = host_mix(x[l] + got[l]);
      a += 2;
    }
    const unsigned seed = 12345u + t % 64;
    ok = ok && out[t] == (hist[0] | hist[1] << 8 | hist[2] << 16 | hist[3] << 24 ^
                          static_cast<unsigned>(a) ^ seed);
  }
  printf("locals: %s (out[0] %08x)\n", ok ? "PASS" : "FAIL", out[0]);

  branches<<<4, 32>>>(d_out, 5);
  cudaMemcpy(out, d_out, 128 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  ok = true;
  for (int b = 0; b < 4; ++b) {
    unsigned v[32], w[32];
    for (int l = 0; l < 32; ++l) v[l] = host_mix(b * 32 + l);
    for (int l = 0; l < 32; ++l) {
      if (b % 2 == 0) w[l] = v[l] + v[l + 1 < 32 ? l + 1 : l];
      else w[l] = v[l] ^ v[(l & ~7) | ((l ^ 3) & 7)];
    }
    for (int round = 0; round < 5; ++round) {
      for (int l = 0; l < 32; ++l) v[l] = host_mix(w[l]) + w[round % 32];
      for (int l = 0; l < 32; ++l) w[l] = v[l];
    }
    for (int l = 0; l < 32; ++l) ok = ok && out[b * 32 + l] == w[l];
  }
  printf("branches: %s (out[0] %08x)\n", ok ? "PASS" : "FAIL", out[0]);

  votes<<<3, 32>>>(d_out);
  cudaMemcpy(out, d_out, 96 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  ok = true;
  for (int b = 0; b < 3; ++b) {
    unsigned key[32], ballot = 0, sum = 0, biggest = 0;
    int any = 0, all = 1;
    for (int l = 0; l < 32; ++l) {
      key[l] = host_mix(l + 32 * b) % 5;
      ballot |= (key[l] == 0) << l;
      any |= key[l] == 4;
      all &= key[l] < 5;
      sum += key[l];
      biggest = key[l] * l > biggest ? key[l] * l : biggest;
    }
    for (int l = 0; l < 32; ++l) {
      unsigned same = 0;
      for (int q = 0; q < 32; ++q) same |= (key[q] == key[l]) << q;
      const unsigned want = ballot ^ (any << 1) ^ (all << 2) ^ same ^ FULL ^ (1u << 3) ^ sum ^
                            (biggest << 20);
      ok = ok && out[b * 32 + l] == want;
    }
  }
  printf("votes: %s (out[0] %08x)\n", ok ? "PASS" : "FAIL", out[0]);
  printf("done %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
