// Day 66: testing GPU kernels. Four green tests can certify a wrong kernel.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_75 -lineinfo -o testing testing.cu
// Run:   ./testing
//
// One block-tree sum reduction, launched two ways. The drop-tail launch
// rounds its grid down and silently skips the end of the input; the guarded
// launch rounds up and lets the kernel's bounds guard handle the last block.
// A supplied suite of four tests passes the buggy launch; a hardened suite
// exposes it and passes the fix. The program checks that split itself and
// exits 1 when any side of it does not happen (2 on a CUDA error). A fifth
// phase, with no gate, runs the supplied suite against the fix as well, for
// measuring both suites with mutants.
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
// ---- The exercise: the fixed launch and the hardened suite.

// FIX: round the grid up; the kernel's bounds guard zeroes the partial block.
float sumGuarded(const std::vector<float>& x) {
  const long long blocks = (static_cast<long long>(x.size()) + kBlock - 1) / kBlock;
  return reduceOnDevice(x, blocks);
}

// snippet: scaled-tolerance
// The rounding errors of a tree (or any reordered) float sum are uncorrelated,
// so they grow like sqrt(K) for K terms, not like K. The factor 4 is slack for
// a different valid summation order. A fixed 1e-5 fails correct code once K
// reaches the millions; a tolerance loosened until every size passes has
// stopped being a test.
constexpr double kFloatEps = 1.1920929e-7;  // 2^-23
constexpr double kOrderSlack = 4.0;

double scaledRtol(long long terms) {
  return std::max(kBaseRtol, kOrderSlack * kFloatEps * std::sqrt(static_cast<double>(terms)));
}
// end snippet

// The oracle at three sizes: odd, whole blocks, large.
void testOracleLadder(SumFn sum, Outcome& outcome) {
  for (const long long n : {kOddN, kWholeBlocksN, kLargeN}) {
    const std::vector<float> x = lessonInput(n);
    const std::string name = "oracle, n=" + std::to_string(n);
    check(outcome, name.c_str(), sum(x), oracleSum(x), scaledRtol(n));
  }
}

// snippet: swap-ends
// A sum does not depend on the order of its terms. Trading the first 99 and
// the last 99 elements moves values into and out of the tail, so a kernel
// that skips the tail sees a different total. A fixed permutation, not a
// random shuffle: a failure is the same number every run.
void testSwapEnds(SumFn sum, Outcome& outcome) {
  const std::vector<float> x = lessonInput(kLargeN);
  std::vector<float> swapped = x;
  std::swap_ranges(swapped.begin(), swapped.begin() + 99, swapped.end() - 99);
  check(outcome, "swap-ends permutation, n=16483", sum(swapped), sum(x), scaledRtol(kLargeN));
}
// end snippet

void hardenedSuite(SumFn sum, Outcome& outcome) {
  testOracleLadder(sum, outcome);
  testSwapEnds(sum, outcome);
  testLinearity(sum, outcome);  // passes both variants, on purpose
}
// exercise: end

// ---- The lesson's claims, checked by the program itself.

int main() {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  std::printf("largest n = %lld, %d threads per block, partials folded on the host in float, "
              "block by block\n\n", kLargeN, kBlock);

  int broken = 0;

  std::printf("supplied suite vs sumDropTail (expected: all four pass)\n");
  Outcome supplied;
  suppliedSuite(sumDropTail, supplied);
  if (!supplied.failed.empty()) {
    std::fprintf(stderr, "GATE: the supplied suite was meant to pass sumDropTail, but %zu of 4 "
                 "failed\n", supplied.failed.size());
    ++broken;
  }

  std::printf("\nhardened suite vs sumDropTail (expected: exposes the bug, oracle n=611 among "
              "the failures)\n");
  Outcome exposed;
  hardenedSuite(sumDropTail, exposed);
  const bool oracle611Failed = std::find(exposed.failed.begin(), exposed.failed.end(),
                                         "oracle, n=611") != exposed.failed.end();
  if (!oracle611Failed) {
    std::fprintf(stderr, "GATE: the hardened suite was meant to expose sumDropTail, with the "
                 "oracle at n=611 failing\n");
    ++broken;
  }

  std::printf("\nhardened suite vs sumGuarded (expected: all pass)\n");
  Outcome fixed;
  hardenedSuite(sumGuarded, fixed);
  if (!fixed.failed.empty()) {
    std::fprintf(stderr, "GATE: the hardened suite was meant to pass sumGuarded, but %zu "
                 "failed\n", fixed.failed.size());
    ++broken;
  }

  std::printf("\ngolden snapshot vs sumGuarded (expected: fails)\n");
  Outcome golden;
  testGoldenSnapshot(sumGuarded, golden);
  if (golden.failed.empty()) {
    std::fprintf(stderr, "GATE: the golden snapshot was meant to fail the fixed kernel, but it "
                 "passed\n");
    ++broken;
  }

  // Not a gate, and no claim of the lesson: the supplied suite against the
  // fix too, so that a mutant of sumGuarded (its grid rounded down, say)
  // meets both suites and `mdbook-evidence mutants` can count what each one
  // catches. The golden snapshot fails here as it does above.
  std::printf("\nsupplied suite vs sumGuarded (expected: the golden snapshot fails, the other "
              "three pass; not a gate)\n");
  Outcome suppliedOnFix;
  suppliedSuite(sumGuarded, suppliedOnFix);

  if (broken != 0) return 1;
  std::printf("\nall four gates hold: the supplied suite certifies the bug, the hardened suite "
              "exposes it and passes the fix, and the golden snapshot defends the bug\n");
  return 0;
}
