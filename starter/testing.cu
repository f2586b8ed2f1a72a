// Day 66 starter: four green tests, one wrong kernel. Your exercise.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_75 -lineinfo -o testing testing.cu
// Run:   ./testing
//
// This is the lesson's program up to its buggy launch and its four supplied
// tests, which all pass. Run it, read the chapter, then write the fixed launch
// and the hardened suite where this file says YOUR WORK STARTS HERE. Without
// a GPU:  mdbook-evidence run starter/testing.cu
//
// Every input value is a multiple of 0.5 and every sum stays far below 2^24,
// so all float arithmetic here is exact: a mismatch can only be an indexing
// or launch bug, and the output is the same bit for bit on any correct GPU.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CUDA_CHECK(call)                                                  \
  do {                                                                    \
    const cudaError_t status_ = (call);                                   \
    if (status_ != cudaSuccess) {                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorString(status_));                   \
      std::exit(2);                                                       \
    }                                                                     \
  } while (0)

// Threads per block: a power of two (the tree halves it) and whole warps.
constexpr int kBlock = 256;
static_assert((kBlock & (kBlock - 1)) == 0, "the tree reduction needs a power of two");
static_assert(kBlock % 32 == 0, "a block must be a whole number of warps");

// The three sizes of the lesson.
constexpr long long kOddN = 611;           // 13 x 47: tail of 99
constexpr long long kWholeBlocksN = 1024;  // four whole blocks: hides the bug
constexpr long long kLargeN = 16483;       // 169 cycles of 97, plus 90: tail of 99

constexpr double kBaseRtol = 1e-5;   // the float32 default, about 84 ulps
constexpr double kLooseRtol = 1e-2;  // the supplied suite's "room for floats"

// Each block sums up to kBlock elements in shared memory and thread 0 writes
// the block's partial sum. Threads past n load 0, so a partial last block is
// safe. Indices are 64-bit: n * blocks may pass 2^31 on a real input.
__global__ void blockSum(const float* x, long long n, float* partials) {
  __shared__ float tile[kBlock];
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = tile[0];
}

// Runs blockSum over `blocks` blocks and folds the partials on the host in
// float, block by block. A launch the runtime refuses (a grid of zero blocks,
// say) is reported on stderr and gives NaN, which fails every comparison.
float reduceOnDevice(const std::vector<float>& x, long long blocks) {
  const long long n = static_cast<long long>(x.size());
  float* dX = nullptr;
  float* dPartials = nullptr;
  CUDA_CHECK(cudaMalloc(&dX, std::max<long long>(n, 1) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dPartials, std::max<long long>(blocks, 1) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dX, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  blockSum<<<static_cast<unsigned>(blocks), kBlock>>>(dX, n, dPartials);
  const cudaError_t launch = cudaGetLastError();
  float sum = NAN;
  if (launch != cudaSuccess) {
    std::fprintf(stderr, "launch of %lld blocks for n=%lld failed: %s\n", blocks, n,
                 cudaGetErrorString(launch));
  } else {
    std::vector<float> partials(blocks);
    CUDA_CHECK(cudaMemcpy(partials.data(), dPartials, blocks * sizeof(float),
                          cudaMemcpyDeviceToHost));
    sum = 0.0f;
    for (const float p : partials) sum += p;
  }
  CUDA_CHECK(cudaFree(dX));
  CUDA_CHECK(cudaFree(dPartials));
  return sum;
}

// snippet: drop-tail
// BUG: integer division rounds down, so the grid covers only the whole
// blocks and the last n mod 256 elements are never read. Nothing crashes and
// nothing warns: the sum is just a little small. Below 256 elements the grid
// has zero blocks and the launch itself fails.
float sumDropTail(const std::vector<float>& x) {
  const long long blocks = static_cast<long long>(x.size()) / kBlock;
  return reduceOnDevice(x, blocks);
}
// end snippet

// The oracle: a sequential sum in double with Kahan compensation, on the CPU,
// deliberately nothing like the kernel.
double oracleSum(const std::vector<float>& x) {
  double sum = 0.0;
  double carry = 0.0;
  for (const float v : x) {
    const double y = static_cast<double>(v) - carry;
    const double t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  }
  return sum;
}

// x[i] = (i mod 97) * 0.5: every value a multiple of 0.5, every sum exact.
std::vector<float> lessonInput(long long n) {
  std::vector<float> x(n);
  for (long long i = 0; i < n; ++i) x[i] = static_cast<float>(i % 97) * 0.5f;
  return x;
}

std::vector<float> scaledBy(std::vector<float> x, float factor) {
  for (float& v : x) v *= factor;
  return x;
}

using SumFn = float (*)(const std::vector<float>&);

// What one suite saw: how many checks passed, and the names of those failed.
struct Outcome {
  int passed = 0;
  std::vector<std::string> failed;
};

// rel = |got - want| / |want| (divided by 1 when want is 0); a check passes
// when rel <= rtol. NaN never passes.
void check(Outcome& outcome, const char* name, double got, double want, double rtol) {
  const double scale = want == 0.0 ? 1.0 : std::fabs(want);
  const double rel = std::fabs(got - want) / scale;
  const bool pass = rel <= rtol;
  std::printf("  %-34s %s  got %.6f  want %.6f  rel %.3e  rtol %.3e\n", name,
              pass ? "PASS" : "FAIL", got, want, rel, rtol);
  if (pass) {
    ++outcome.passed;
  } else {
    outcome.failed.push_back(name);
  }
}

// ---- The supplied suite: four tests of the kind that pile up in projects.

// snippet: golden
// Captured by running the kernel once and pasting what it printed: the sum
// of elements 0..511, the two whole blocks the buggy grid covers. The true
// sum of the 611 elements is 14171. A snapshot taken from a bug defends it.
constexpr double kGoldenSum611 = 11815.5;

void testGoldenSnapshot(SumFn sum, Outcome& outcome) {
  check(outcome, "golden snapshot, n=611", sum(lessonInput(kOddN)), kGoldenSum611, 0.0);
}
// end snippet

// The kernel against itself: a deterministic wrong answer passes forever.
void testDeterminism(SumFn sum, Outcome& outcome) {
  const std::vector<float> x = lessonInput(kLargeN);
  check(outcome, "determinism, n=16483", sum(x), sum(x), 0.0);
}

// The real oracle, behind a tolerance wide enough to hide a dropped tail.
void testLooseOracle(SumFn sum, Outcome& outcome) {
  const std::vector<float> x = lessonInput(kLargeN);
  check(outcome, "loose oracle, n=16483", sum(x), oracleSum(x), kLooseRtol);
}

// sum(2x) == 2 sum(x): honest, but blind to a dropped tail, which is linear.
void testLinearity(SumFn sum, Outcome& outcome) {
  const std::vector<float> x = lessonInput(kWholeBlocksN);
  check(outcome, "linearity, n=1024", sum(scaledBy(x, 2.0f)), 2.0 * sum(x), kBaseRtol);
}

void suppliedSuite(SumFn sum, Outcome& outcome) {
  testGoldenSnapshot(sum, outcome);
  testDeterminism(sum, outcome);
  testLooseOracle(sum, outcome);
  testLinearity(sum, outcome);
}

// exercise: begin
// ---- YOUR WORK STARTS HERE --------------------------------------------------
//
// The supplied suite above passes sumDropTail, and sumDropTail is wrong.
// Write, here:
//   1. sumGuarded: the same kernel and fold, with a grid that covers every
//      element (change one expression);
//   2. a scaled tolerance for a sum of K terms: max(1e-5, 4 * eps * sqrt(K));
//   3. a hardened suite: the oracle at n = 611, 1024 and 16483 with the scaled
//      tolerance, the swap-ends permutation at 16483, and the linearity test;
// then extend main with the lesson's phases 2 to 4 and their gates, and its
// fifth phase (the supplied suite against sumGuarded, with no gate).
//
// ---- YOUR WORK ENDS HERE ----------------------------------------------------
// exercise: end


int main() {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  std::printf("largest n = %lld, %d threads per block, partials folded on the host in float, "
              "block by block\n\n", kLargeN, kBlock);

  std::printf("supplied suite vs sumDropTail (expected: all four pass)\n");
  Outcome supplied;
  suppliedSuite(sumDropTail, supplied);
  if (!supplied.failed.empty()) {
    std::fprintf(stderr, "GATE: the supplied suite was meant to pass sumDropTail, but %zu of 4 "
                 "failed\n", supplied.failed.size());
    return 1;
  }

  // TODO(student): phases 2 to 4 go here, each with its gate, then phase 5.

  std::printf("\nphase 1 holds: the supplied suite passes sumDropTail; now make it fail\n");
  return 0;
}
