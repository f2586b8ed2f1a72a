// Cost of an invalid float operation under CPU emulation (the shim's
// cuda_emu_fpe.h: a SIGFPE and a single-step SIGTRAP each), against the same
// division when it is valid, timed in one run: 16 blocks of 256 threads, each
// dividing kOps times (0/0 in the first launch, 1/1 in the second).
// Run with:  scripts/bench-fpe
#include <chrono>
#include <cstdio>

constexpr int kOps = 16;

__global__ void divide(const float* num, const float* den, float* out) {
  float a = num[threadIdx.x], b = den[threadIdx.x], s = 0.0f;
  for (int i = 0; i < kOps; ++i) {
    float q = a / b;
    s += q == q ? q : 1.0f;  // counts NaNs as 1 (== is unordered: no trap)
    a = a + 0.0f * s;         // keep the division in the loop
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

double seconds(const float* num, const float* den, float* out) {
  auto t0 = std::chrono::steady_clock::now();
  divide<<<16, 256>>>(num, den, out);
  cudaDeviceSynchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
  float *zero, *one, *out;
  cudaMallocManaged(&zero, 256 * sizeof(float));
  cudaMallocManaged(&one, 256 * sizeof(float));
  cudaMallocManaged(&out, 16 * 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) zero[i] = 0.0f, one[i] = 1.0f;
  seconds(one, one, out);  // warm up
  double invalid = 1e30, valid = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    double a = seconds(zero, zero, out), b = seconds(one, one, out);
    invalid = a < invalid ? a : invalid;
    valid = b < valid ? b : valid;
  }
  const double ops = 16.0 * 256 * kOps;
  printf("invalid 0/0: %.0f ns per division (%.3f s for %.0f), valid 1/1: %.1f ns (%.3f s): %.0fx\n",
         invalid * 1e9 / ops, invalid, ops, valid * 1e9 / ops, valid, invalid / valid);
  printf("out[0] %f\n", out[0]);
  return 0;
}
