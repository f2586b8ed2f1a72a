// cuda_emu_box_muller.cpp: part of the CPU emulation shim: what cuRAND's
// float Box-Muller takes from the GPU's math beyond IEEE arithmetic, read
// from tables measured on the H200 (src/emulate/tables.rs says how, and
// writes them into the cache at CUDA_EMU_TABLES_DIR):
//   - the hardware sine and cosine (__sinf, __cosf, __sincosf) of any x:
//     the turn count t = __fmul_rz(x, 1 / 2 pi), its 25-bit fraction
//     k = floor(frac(t) * 2^25) indexes one table, the sine at k and the
//     cosine at k + 2^23 (cos(t) = sin(t + 1/4), bit for bit on the H200);
//   - CUDA's logf of a cuRAND uniform: (float)log((double)u), one unit in
//     the last place off for the u the table lists.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CUDA_EMU_TABLES_DIR
#define CUDA_EMU_TABLES_DIR ""
#endif

namespace cuda_emu {
[[noreturn]] void refuse_feature(const char* file, int line, const char* what);

namespace {
const uint32_t kFractions = 1u << 25;

struct Table {
  const uint32_t* entries = nullptr;
  size_t count = 0;
};

// The table file `name`, mapped; refuses (naming the caller's line) when it
// is missing, as it is when the program was not built by mdbook-evidence.
Table map_table(const char* name, const char* file, int line) {
  const std::string path = std::string(CUDA_EMU_TABLES_DIR) + "/" + name;
  Table t;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      t.entries = static_cast<const uint32_t*>(p);
      t.count = static_cast<size_t>(st.st_size) / 4;
    }
  }
  if (fd >= 0) close(fd);
  if (t.entries == nullptr) {
    const std::string what = "the hardware sine and cosine or cuRAND's normal distribution without the emulator's "
                             "measured table " + path +
                             " (mdbook-evidence writes it when it builds a program that includes curand_kernel.h "
                             "or calls __sinf, __cosf or __sincosf)";
    refuse_feature(file, line, what.c_str());
  }
  return t;
}

const Table& sine_table(const char* file, int line) {
  static const Table t = map_table("mufu_sine.u32", file, line);
  return t;
}
const Table& logf_table(const char* file, int line) {
  static const Table t = map_table("logf_curand.u32", file, line);
  return t;
}

uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// x * y rounded toward zero (the product of two floats is exact in double).
float mul_rz(float x, float y) {
  const double p = static_cast<double>(x) * static_cast<double>(y);
  float f = static_cast<float>(p);
  if (std::fabs(static_cast<double>(f)) > std::fabs(p)) f = std::nextafter(f, 0.0f);
  return f;
}
}  // namespace

namespace rand {
// __sincosf of x, as the H200 computes it: the rule holds for every
// non-negative float (tests/cuda/fitting/mufu_range.txt, 0 conflicts), the
// sine is odd and the cosine even, and infinities and NaN give the GPU's
// NaN, 0x7fffffff.
void hardware_sincos(float x, float* s, float* c, const char* file, int line) {
  if (!std::isfinite(x)) {
    *s = *c = float_of(0x7fffffffu);  // the GPU's NaN
    return;
  }
  if (std::signbit(x)) {
    hardware_sincos(-x, s, c, file, line);
    *s = -*s;
    return;
  }
  const Table& t = sine_table(file, line);
  const float turns = mul_rz(x, 0.159154943f);
  const float fraction = turns - std::floor(turns);
  const uint32_t k = static_cast<uint32_t>(fraction * 33554432.0f) & (kFractions - 1);
  *s = float_of(t.entries[k]);
  *c = float_of(t.entries[(k + (kFractions >> 2)) & (kFractions - 1)]);
}

// CUDA's logf of u, a cuRAND uniform (x 2^-32 + 2^-33 for a 32-bit draw x).
float curand_logf(float u, const char* file, int line) {
  const Table& t = logf_table(file, line);
  const float near = static_cast<float>(std::log(static_cast<double>(u)));
  const uint32_t key = bits_of(u);
  size_t lo = 0, hi = t.count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if ((t.entries[mid] & 0x7fffffffu) < key) lo = mid + 1;
    else hi = mid;
  }
  if (lo == t.count || (t.entries[lo] & 0x7fffffffu) != key) return near;
  // One above or below in ordered integers: for a negative logarithm, one
  // above is one less in magnitude.
  const bool above = (t.entries[lo] >> 31) != 0;
  const uint32_t b = bits_of(near);
  const bool negative = (b >> 31) != 0;
  if (b == 0 || b == 0x80000000u) return near;  // never listed: log(1) = 0
  return float_of(above == negative ? b - 1 : b + 1);
}
}  // namespace rand
}  // namespace cuda_emu
