// Warp shuffles: each kind with widths 32, 16 and 8, offsets that fall out of
// the lane's segment (those lanes keep their own value), source lanes past
// the width (taken modulo the width), 64-bit values, and a warp sum.
// Lane values are 100 + lane, so each output names its source lane.
#include <cuda_runtime.h>

#include <cstdio>

enum { kIdx, kUp, kDown, kXor };

__global__ void shuffle(int* out, int kind, int operand, int width) {
  int lane = threadIdx.x % 32;
  int v = 100 + lane;
  int r = 0;
  switch (kind) {
    case kIdx: r = __shfl_sync(0xffffffffu, v, operand, width); break;
    case kUp: r = __shfl_up_sync(0xffffffffu, v, operand, width); break;
    case kDown: r = __shfl_down_sync(0xffffffffu, v, operand, width); break;
    default: r = __shfl_xor_sync(0xffffffffu, v, operand, width); break;
  }
  out[threadIdx.x] = r;
}

__global__ void shuffle64(double* d, long long* ll) {
  int lane = threadIdx.x % 32;
  double v = lane * 1.25 + 1e10;
  long long w = (static_cast<long long>(lane) << 40) | lane;
  d[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 3);
  ll[threadIdx.x] = __shfl_xor_sync(0xffffffffu, w, 5);
}

__global__ void warp_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

// Half the warp shuffles among itself (mask 0x0000ffff), the other half
// among itself with its own mask.
__global__ void halves(int* out) {
  int lane = threadIdx.x % 32;
  int r;
  if (lane < 16) {
    r = __shfl_down_sync(0x0000ffffu, 100 + lane, 1, 16);
  } else {
    r = __shfl_xor_sync(0xffff0000u, 100 + lane, 2, 16);
  }
  out[threadIdx.x] = r;
}

void print_row(const char* name, const int* h, int n) {
  std::printf("%-22s", name);
  for (int k = 0; k < n; ++k) std::printf(" %d", h[k] - 100);
  std::printf("\n");
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  int h[64];
  const char* kinds[] = {"shfl", "shfl_up", "shfl_down", "shfl_xor"};
  struct Case {
    int kind, operand, width;
  } cases[] = {
      {kIdx, 0, 32},  {kIdx, 5, 32},   {kIdx, 31, 32},  {kIdx, 40, 32},  {kIdx, -1, 32},
      {kIdx, 3, 16},  {kIdx, 21, 16},  {kIdx, 2, 8},    {kIdx, 9, 8},    {kUp, 1, 32},
      {kUp, 5, 32},   {kUp, 0, 32},    {kUp, 31, 32},   {kUp, 32, 32},   {kUp, 1, 16},
      {kUp, 3, 8},    {kUp, 9, 8},     {kDown, 1, 32},  {kDown, 16, 32}, {kDown, 31, 32},
      {kDown, 32, 32}, {kDown, 33, 32}, {kDown, 2, 16},  {kDown, 3, 8},   {kXor, 1, 32},
      {kXor, 16, 32}, {kXor, 31, 32},  {kXor, 8, 16},   {kXor, 16, 16},  {kXor, 4, 8},
      {kXor, 8, 8},   {kXor, 24, 8},   {kXor, 32, 32},  {kIdx, 7, 4},    {kDown, 1, 2},
  };
  for (const Case& c : cases) {
    shuffle<<<1, 64>>>(d, c.kind, c.operand, c.width);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    char name[64];
    std::snprintf(name, sizeof name, "%s(%d, w=%d)", kinds[c.kind], c.operand, c.width);
    print_row(name, h, 32);
    // the second warp must match the first
    for (int k = 0; k < 32; ++k)
      if (h[32 + k] != h[k]) std::printf("  warp 1 lane %d differs: %d\n", k, h[32 + k] - 100);
  }
  halves<<<1, 32>>>(d);
  cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  print_row("halves", h, 32);

  double* dd;
  long long* dl;
  cudaMalloc(&dd, 32 * sizeof(double));
  cudaMalloc(&dl, 32 * sizeof(long long));
  shuffle64<<<1, 32>>>(dd, dl);
  double hd[32];
  long long hl[32];
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost);
  std::printf("double down 3: %.2f %.2f %.2f; long long xor 5: %llx %llx\n", hd[0], hd[28], hd[31],
              static_cast<unsigned long long>(hl[0]), static_cast<unsigned long long>(hl[31]));

  const int n = 256;
  float hin[n];
  for (int k = 0; k < n; ++k) hin[k] = static_cast<float>(k % 13) * 0.25f;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, (n / 32) * sizeof(float));
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  warp_sum<<<2, 128>>>(din, dout);
  float hout[n / 32];
  cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  std::printf("warp sums (%s):", cudaGetErrorString(cudaGetLastError()));
  for (float v : hout) std::printf(" %g", v);
  std::printf("\n");
  return 0;
}
