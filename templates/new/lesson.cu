// @TITLE@: scaling a vector, checked against the CPU.
//
// Build: nvcc -std=c++17 -O3 -lineinfo -o @LESSON@ @LESSON@.cu
// Run:   ./@LESSON@
//
// A scaffold made by `mdbook-evidence new @LESSON@`: one kernel, one phase of
// checks and one gate, in the output conventions the tool parses (see the
// authoring chapter). Every value is a multiple of 0.5, so the float
// arithmetic is exact and the output is the same bit for bit on any correct
// executor. Replace the kernel and the checks with the lesson's own.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CUDA_CHECK(call)                                                 \
  do {                                                                   \
    const cudaError_t status_ = (call);                                  \
    if (status_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, \
                   #call, cudaGetErrorString(status_));                  \
      std::exit(2);                                                      \
    }                                                                    \
  } while (0)

constexpr int kBlock = 256;

// snippet: kernel
// y[i] = a * x[i] for every i below n; threads past the end do nothing.
__global__ void scale(const float* x, float* y, float a, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
// end snippet

// exercise: begin
// Enough blocks of kBlock threads to cover n elements: rounded up, so the
// last, partial block runs too.
int blocksFor(long long n) { return static_cast<int>((n + kBlock - 1) / kBlock); }
// exercise: end

// One check line: name, verdict, got, want, rel and rtol.
bool check(const char* name, double got, double want, double rtol) {
  const double rel = std::fabs(got - want) / (want == 0.0 ? 1.0 : std::fabs(want));
  const bool pass = rel <= rtol;
  std::printf("  %-34s %s  got %.6f  want %.6f  rel %.3e  rtol %.3e\n", name,
              pass ? "PASS" : "FAIL", got, want, rel, rtol);
  return pass;
}

// The sum of a * x on the GPU (the kernel, then the host adds the results).
double scaledSum(const std::vector<float>& x, float a) {
  const long long n = static_cast<long long>(x.size());
  float* dx = nullptr;
  float* dy = nullptr;
  CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, x.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dy, 0, x.size() * sizeof(float)));
  scale<<<blocksFor(n), kBlock>>>(dx, dy, a, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> y(x.size());
  CUDA_CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  double sum = 0.0;
  for (float v : y) sum += v;
  return sum;
}

int main() {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  const long long sizes[] = {256, 1000, 4099};
  std::printf("n up to %lld, %d threads per block, results added on the host\n\n", sizes[2],
              kBlock);

  std::printf("scale vs the CPU (expected: all pass)\n");
  bool all = true;
  for (long long n : sizes) {
    std::vector<float> x(static_cast<size_t>(n));
    double want = 0.0;
    for (long long i = 0; i < n; ++i) {
      x[static_cast<size_t>(i)] = static_cast<float>(i % 7) * 0.5f;
      want += 2.0 * x[static_cast<size_t>(i)];
    }
    char name[64];
    std::snprintf(name, sizeof name, "scaled sum, n=%lld", n);
    all &= check(name, scaledSum(x, 2.0f), want, 0.0);
  }
  if (!all) {
    std::fprintf(stderr, "GATE: scale vs the CPU: expected all to pass\n");
    return 1;
  }
  std::printf("\nthe gate holds: every scaled sum matches the CPU\n");
  return 0;
}
