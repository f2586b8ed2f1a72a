// A __host__ __device__ function's `a*b + c` is fused into one multiply-add
// where device code calls it and rounded twice where host code does: nvcc
// compiles it once for each side, the host side with the host compiler,
// which targets plain x86-64. A CPU reference written with the same helper
// as the kernel therefore differs from it in the last bits, on the GPU.
// Each line hashes 4096 results of one helper, called from a kernel and
// from main, over the same inputs.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

const int N = 4096;

static float input(int i) { return (float)((i * 2654435761u) >> 8) / 16777216.0f; }

__host__ __device__ float madd(float a, float b, float c) { return a * b + c; }
struct Vec2 {
  float x, y;
  __host__ __device__ float dot(Vec2 o) const { return x * o.x + y * o.y; }
};
template <class T>
__host__ __device__ T lerp(T a, T b, T t) {
  return a + t * (b - a);
}
__host__ __device__ void axpy(float a, const float* x, float* y) { *y = a * *x + *y; }
__host__ __device__ inline constexpr float polynomial(float x) { return (2.0f * x - 3.0f) * x + 1.0f; }

// form k of 5, on inputs a, b, c.
__host__ __device__ float form(int k, float a, float b, float c) {
  switch (k) {
    case 0: return madd(a, b, -c);
    case 1: return Vec2{a, c}.dot(Vec2{b, -a});
    case 2: return lerp(c, a, b);
    case 3: {
      float y = -c;
      axpy(a, &b, &y);
      return y;
    }
    default: return polynomial(a) - c;
  }
}

__global__ void device_forms(const float* in, float* out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  out[i] = form(k, in[i], in[i + N], in[i + 2 * N]);
}

static unsigned long long hash(const float* v, int n) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) {
    unsigned u;
    memcpy(&u, &v[i], 4);
    for (int b = 0; b < 4; ++b) h = (h ^ ((u >> (8 * b)) & 255u)) * 1099511628211ull;
  }
  return h;
}

int main() {
  static float in[3 * N], out[N], host[N];
  for (int i = 0; i < 3 * N; ++i) in[i] = input(i);
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  const char* names[5] = {"madd", "Vec2::dot", "lerp<float>", "axpy (void)", "polynomial (constexpr)"};
  for (int k = 0; k < 5; ++k) {
    device_forms<<<N / 256, 256>>>(d_in, d_out, k);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    int differ = 0;
    for (int i = 0; i < N; ++i) {
      host[i] = form(k, in[i], in[i + N], in[i + 2 * N]);
      differ += memcmp(&host[i], &out[i], 4) != 0;
    }
    printf("%-22s device %016llx host %016llx, %d of %d differ\n", names[k], hash(out, N), hash(host, N), differ, N);
  }
  constexpr float folded = polynomial(0.75f);
  printf("polynomial(0.75) at compile time: %a\n", folded);
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
