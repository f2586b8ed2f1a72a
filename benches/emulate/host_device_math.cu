// What a math call costs in the three places the emulator puts CUDA's own
// function (README, "Math functions"): a __device__ function (rewritten at
// compile time), a __host__ __device__ function (its contracted device copy
// calls CUDA's; a check picks the copy once per call of the function), and
// a macro body (each call asks whether device code runs it). Each kernel
// runs kCalls fminf calls a thread; the program prints ns a call and each
// form's ratio to the __device__ one. Nothing here is a test: timings
// depend on the machine and its load.
//
//   mdbook-evidence run --backend emulate --threads 1 benches/emulate/host_device_math.cu
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

#define MIN_OF(a, b) fminf(a, b)

constexpr int kThreads = 256, kBlocks = 64, kCalls = 4000;

__device__ float device_min(float a, float b) { return fminf(a, b); }
__host__ __device__ float either_min(float a, float b) { return fminf(a, b); }

template <int Form>
__global__ void run(const float* in, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = in[t], step = in[(t + 1) % (kThreads * kBlocks)];
  for (int i = 0; i < kCalls; ++i) {
    if (Form == 0) acc = device_min(acc + step, step * 3.0f);
    if (Form == 1) acc = either_min(acc + step, step * 3.0f);
    if (Form == 2) acc = MIN_OF(acc + step, step * 3.0f);
  }
  out[t] = acc;
}

template <int Form>
double seconds(const float* in, float* out) {
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    run<Form><<<kBlocks, kThreads>>>(in, out);
    cudaDeviceSynchronize();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (took.count() < best) best = took.count();
  }
  return best;
}

int main() {
  const int n = kThreads * kBlocks;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = 0.001f * static_cast<float>(i % 97);
  const double calls = static_cast<double>(n) * kCalls;
  const double base = seconds<0>(in, out);
  const double host_device = seconds<1>(in, out);
  const double macro = seconds<2>(in, out);
  printf("__device__ function:          %.2f ns a call\n", base / calls * 1e9);
  printf("__host__ __device__ function: %.2f ns a call (%.2fx)\n", host_device / calls * 1e9,
         host_device / base);
  printf("macro:                        %.2f ns a call (%.2fx)\n", macro / calls * 1e9,
         macro / base);
  return 0;
}
