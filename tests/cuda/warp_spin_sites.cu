// Lanes of one warp that wait for other lanes of the same warp, polling through
// more than one volatile access per turn of their loop, while the lanes they
// wait for must first get to an access further down in the source. Volta's
// scheduler lets both sides go on, so on the GPU each kernel ends; an emulator
// that always lets the lanes at the earliest line go first would keep the
// pollers going for ever.
//
// handoff: the even lanes poll a stop word and their odd neighbour's flag, in
// turn; the odd lanes read a word of input, then set their flag.
// chain: each lane's cell is ready once the next lane's is (lane 31's is ready
// at once); every lane runs the same loop: look at its own cell, look at the
// next one, write its own (the write is the last line of the loop), as the
// centre-of-mass pass of a Barnes-Hut tree code does for a cell's children.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void handoff(volatile int* flag, volatile int* stop, volatile int* input, int* out) {
  const int lane = threadIdx.x;
  if (lane % 2 == 0) {
    while (*stop == 0) {
      if (flag[lane + 1] != 0) break;
    }
    out[lane] = flag[lane + 1];
  } else {
    const int v = input[lane] * 3;
    flag[lane] = v + 1;
    out[lane] = v;
  }
}

__global__ void chain(volatile int* cell) {
  const int lane = threadIdx.x;
  for (;;) {
    if (cell[lane] >= 0) break;
    const int next = lane == 31 ? 0 : cell[lane + 1];
    if (next >= 0) cell[lane] = next + lane;
  }
}

int main() {
  int *flag, *stop, *input, *out, *cell;
  cudaMalloc(&flag, 32 * sizeof(int));
  cudaMalloc(&stop, sizeof(int));
  cudaMalloc(&input, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMalloc(&cell, 32 * sizeof(int));
  int host_input[32], host_cell[32];
  for (int i = 0; i < 32; ++i) {
    host_input[i] = 100 + i;
    host_cell[i] = -1;
  }
  cudaMemset(flag, 0, 32 * sizeof(int));
  cudaMemset(stop, 0, sizeof(int));
  cudaMemcpy(input, host_input, sizeof host_input, cudaMemcpyHostToDevice);
  cudaMemcpy(cell, host_cell, sizeof host_cell, cudaMemcpyHostToDevice);

  handoff<<<1, 32>>>(flag, stop, input, out);
  chain<<<1, 32>>>(cell);
  cudaError_t err = cudaDeviceSynchronize();
  printf("kernels: %s\n", cudaGetErrorString(err));

  int got[32], cells[32];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(cells, cell, sizeof cells, cudaMemcpyDeviceToHost);
  int handoff_ok = 0, chain_ok = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const int odd = lane | 1;
    const int expected = lane % 2 == 0 ? host_input[odd] * 3 + 1 : host_input[lane] * 3;
    handoff_ok += got[lane] == expected;
    // cell[l] = sum of l .. 31
    chain_ok += cells[lane] == (31 * 32 / 2) - (lane * (lane - 1) / 2);
  }
  printf("handoff: %d of 32 lanes as expected (lane 0 %d, lane 1 %d)\n", handoff_ok, got[0], got[1]);
  printf("chain: %d of 32 cells as expected (cell 0 %d, cell 31 %d)\n", chain_ok, cells[0],
         cells[31]);
  return 0;
}
