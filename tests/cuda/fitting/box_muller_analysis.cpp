// Reads what box_muller_tables.cu wrote and says how the GPU's results
// relate to what a CPU computes, so that the size of a table that would let
// the emulator reproduce them is known:
//   - CUDA's logf against (float)log((double)u) (glibc's log, as the
//     emulator would compute it) on every cuRAND uniform: how many differ,
//     by how much; the differing u are written to DIR/logf_exceptions.u32
//     (bits(u), bit 31 set where the GPU's bits are one above);
//   - the hardware sine and cosine against sin(2 pi k / 2^25) rounded to
//     float: the residual in units in the last place, its spread and its
//     symmetries; the residuals (clamped to int8) go to DIR/mufu_sin.i8 and
//     DIR/mufu_cos.i8 for a compressor to measure.
//
//   g++ -O2 -std=c++17 -pthread box_muller_analysis.cpp -o analysis && ./analysis DIR
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

const uint32_t kUnset = 0xffffffffu;

static std::vector<uint32_t> load(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path.c_str());
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  const long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  std::vector<uint32_t> v(bytes / 4);
  if (fread(v.data(), 4, v.size(), f) != v.size()) exit(1);
  fclose(f);
  return v;
}

template <class T>
static void save(const std::string& path, const std::vector<T>& v) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(v.data(), sizeof(T), v.size(), f) != v.size()) exit(1);
  fclose(f);
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// The distance from a to b in units in the last place (as ordered integers).
static long long ulps(uint32_t a, uint32_t b) {
  auto ordered = [](uint32_t u) -> long long {
    return (u & 0x80000000u) ? -static_cast<long long>(u & 0x7fffffffu) : static_cast<long long>(u);
  };
  return ordered(a) - ordered(b);
}

static void analyse_logf(const std::string& dir) {
  const std::vector<uint32_t> table = load(dir + "/logf_u.u32");
  const uint32_t base = bits_of(2.3283064e-10f / 2.0f);
  const unsigned threads = std::thread::hardware_concurrency();
  std::vector<std::vector<uint32_t>> found(threads);
  std::vector<std::map<long long, size_t>> spread(threads);
  std::vector<size_t> reached(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const size_t lo = table.size() * t / threads, hi = table.size() * (t + 1) / threads;
      for (size_t i = lo; i < hi; ++i) {
        if (table[i] == kUnset) continue;
        ++reached[t];
        const uint32_t ub = base + static_cast<uint32_t>(i);
        const uint32_t ref = bits_of(static_cast<float>(std::log(static_cast<double>(float_of(ub)))));
        if (ref == table[i]) continue;
        const long long d = ulps(table[i], ref);
        ++spread[t][d];
        found[t].push_back(ub | (d > 0 ? 0x80000000u : 0));
      }
    });
  for (auto& th : pool) th.join();
  std::vector<uint32_t> all;
  std::map<long long, size_t> total;
  size_t n = 0;
  for (unsigned t = 0; t < threads; ++t) {
    all.insert(all.end(), found[t].begin(), found[t].end());
    for (auto& [d, c] : spread[t]) total[d] += c;
    n += reached[t];
  }
  printf("logf: %zu cuRAND uniforms, %zu differ from (float)log((double)u):", n, all.size());
  for (auto& [d, c] : total) printf(" %+lld ulp %zu", d, c);
  printf("\n");
  save(dir + "/logf_exceptions.u32", all);
}

static void analyse_mufu(const std::string& dir, const char* name, bool cosine) {
  const std::vector<uint32_t> table = load(dir + "/mufu_" + name + ".u32");
  const size_t n = table.size();
  std::vector<int8_t> residual(n, 0);
  std::map<long long, size_t> hist;
  size_t reached = 0, clamped = 0;
  double worst_abs = 0;
  for (size_t k = 0; k < n; ++k) {
    if (table[k] == kUnset) continue;
    ++reached;
    const double turn = static_cast<double>(k) / static_cast<double>(n);
    const double exact = cosine ? std::cos(2 * M_PI * turn) : std::sin(2 * M_PI * turn);
    const uint32_t ref = bits_of(static_cast<float>(exact));
    const long long d = ulps(table[k], ref);
    worst_abs = std::fmax(worst_abs, std::fabs(float_of(table[k]) - exact));
    ++hist[d < -8 ? -9 : (d > 8 ? 9 : d)];
    if (d < -127 || d > 127) ++clamped;
    residual[k] = static_cast<int8_t>(d < -127 ? -128 : (d > 127 ? 127 : d));
  }
  printf("%s: %zu of %zu fractions reached; worst absolute error %.3g (2^%.2f); ulps against the rounded exact value:",
         name, reached, n, worst_abs, std::log2(worst_abs));
  for (auto& [d, c] : hist) printf(" %s%lld:%zu", d == -9 ? "<=" : (d == 9 ? ">=" : ""), d, c);
  printf("; clamped %zu\n", clamped);
  save(dir + "/mufu_" + name + ".i8", residual);
}

static void symmetries(const std::string& dir) {
  const std::vector<uint32_t> s = load(dir + "/mufu_sin.u32"), c = load(dir + "/mufu_cos.u32");
  const size_t n = s.size(), q = n / 4, h = n / 2;
  size_t tried[4] = {0, 0, 0, 0}, held[4] = {0, 0, 0, 0};
  for (size_t k = 0; k < n; ++k) {
    auto check = [&](int which, uint32_t a, uint32_t b) {
      if (a == kUnset || b == kUnset) return;
      ++tried[which];
      held[which] += a == b;
    };
    check(0, s[k], c[(k + n - q) % n]);            // sin(t) = cos(t - 1/4)
    check(1, s[k], s[(h + n - k) % n]);            // sin(t) = sin(1/2 - t)
    check(2, s[k], s[(k + h) % n] ^ 0x80000000u);  // sin(t) = -sin(t + 1/2)
    check(3, c[k], c[(n - k) % n]);                // cos(t) = cos(-t)
  }
  const char* what[4] = {"sin(t) = cos(t - 1/4)", "sin(t) = sin(1/2 - t)", "sin(t) = -sin(t + 1/2)",
                         "cos(t) = cos(1 - t)"};
  for (int i = 0; i < 4; ++i) printf("symmetry %s: %zu of %zu\n", what[i], held[i], tried[i]);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: analysis DIR\n");
    return 2;
  }
  analyse_logf(argv[1]);
  analyse_mufu(argv[1], "sin", false);
  analyse_mufu(argv[1], "cos", true);
  symmetries(argv[1]);
  return 0;
}
