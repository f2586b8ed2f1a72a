// __constant__ and __device__ variables: cudaMemcpyToSymbol (with an
// offset), cudaMemcpyFromSymbol, cudaGetSymbolAddress, a __device__ counter
// bumped with atomicAdd across launches, an out-of-range symbol copy.
#include <cuda_runtime.h>

#include <cstdio>

__constant__ float weights[8];
__device__ int counter;
__device__ float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void weigh(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = in[i] * weights[i % 8] + table[i % 4];
  atomicAdd(&counter, 1);
}

int main() {
  float w[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7};
  std::printf("to symbol: %d\n", cudaMemcpyToSymbol(weights, w, sizeof w));
  float w2[2] = {10, 20};
  std::printf("to symbol, offset 24: %d\n", cudaMemcpyToSymbol(weights, w2, sizeof w2, 6 * sizeof(float)));
  std::printf("to symbol, too long: %d\n", cudaMemcpyToSymbol(weights, w, sizeof w, 4));
  std::printf("last error: %d\n", cudaGetLastError());
  int zero = 0;
  cudaMemcpyToSymbol(counter, &zero, sizeof zero);
  float hin[16], hout[16];
  for (int k = 0; k < 16; ++k) hin[k] = static_cast<float>(k);
  float *din, *dout;
  cudaMalloc(&din, sizeof hin);
  cudaMalloc(&dout, sizeof hout);
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  weigh<<<1, 16>>>(din, dout);
  weigh<<<1, 16>>>(din, dout);
  cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  int c = -1;
  std::printf("from symbol: %d\n", cudaMemcpyFromSymbol(&c, counter, sizeof c));
  std::printf("counter %d out:", c);
  for (float v : hout) std::printf(" %g", v);
  std::printf("\n");
  float* tp = nullptr;
  std::printf("symbol address: %d\n", cudaGetSymbolAddress(reinterpret_cast<void**>(&tp), table));
  float t[4];
  std::printf("memcpy from symbol address: %d\n", cudaMemcpy(t, tp, sizeof t, cudaMemcpyDeviceToHost));
  std::printf("table %g %g %g %g\n", t[0], t[1], t[2], t[3]);
  return 0;
}
