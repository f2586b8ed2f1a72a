// A 512 x 512 float matrix multiply with 16 x 16 tiles in shared memory: the
// program scripts/bench-multicore times on 1 and 2 cores. Inputs are quotients
// (correctly rounded on both sides), each product is added with a fused
// multiply-add in k order, so every element is bit-exact with the GPU; printed
// as a hash of all the bits, a double sum and a few elements in hex. REPEAT
// (argv[1], default 1) runs the kernel that many times (the result is the same).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kN = 512;
constexpr int kTile = 16;

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / kTile; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main(int argc, char** argv) {
  const int repeat = argc > 1 ? atoi(argv[1]) : 1;
  const size_t bytes = sizeof(float) * kN * kN;
  std::vector<float> a(kN * kN), b(kN * kN), c(kN * kN);
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < kN; ++k) {
      a[i * kN + k] = static_cast<float>((i * 37 + k * 11) % 101 - 50) / 101.0f;
      b[i * kN + k] = static_cast<float>((i * 13 + k * 29) % 97 - 48) / 97.0f;
    }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
  const dim3 block(kTile, kTile);
  const dim3 grid(kN / kTile, kN / kTile);
  for (int r = 0; r < repeat; ++r) matmul<<<grid, block>>>(da, db, dc, kN);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);
  unsigned hash = 2166136261u;
  double total = 0;
  for (float v : c) {
    unsigned bits;
    memcpy(&bits, &v, sizeof bits);
    for (int s = 0; s < 32; s += 8) hash = (hash ^ ((bits >> s) & 0xff)) * 16777619u;
    total += v;
  }
  std::printf("sync %d\n", static_cast<int>(e));
  std::printf("hash %08x sum %a\n", hash, total);
  std::printf("c[0][0] %a c[1][2] %a c[511][511] %a c[300][17] %a\n", c[0], c[1 * kN + 2],
              c[511 * kN + 511], c[300 * kN + 17]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
