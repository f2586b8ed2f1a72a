// cuda_emu_tables.cpp: part of the CPU emulation shim: what the GPU's math
// takes from its hardware beyond IEEE arithmetic, read from tables measured
// on the H200 (src/emulate/tables.rs says how, and writes each into its
// folder under CUDA_EMU_TABLES_DIR the first time a program needs it):
//   - the hardware sine and cosine (__sinf, __cosf, __sincosf, and cuRAND's
//     float Box-Muller) of any x: the turn count t = __fmul_rz(x, 1 / 2 pi),
//     its 25-bit fraction k = floor(frac(t) * 2^25) indexes one table, the
//     sine at k and the cosine at k + 2^23 (cos(t) = sin(t + 1/4), bit for
//     bit on the H200);
//   - the double reciprocal seed (MUFU.RCP64H) that CUDA's double log
//     starts from (cuda_emu_math.h: cuda_log), by the argument's high word;
//   - the float reciprocal and reciprocal square root (MUFU.RCP, MUFU.RSQ)
//     over one period each, which cuda_emu_math.h's hardware_rcp and
//     hardware_rsqrt scale (CUDA's tanf, atanf, asinf, acosf, powf, rsqrtf
//     and others use them).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cuda_emu_math.h"
#include "cuda_emu_rounding_core.h"

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

// The table `folder/name`, mapped; refuses (naming the caller's line) when
// it is missing, as it is when the program was not built by mdbook-evidence.
Table map_table(const char* folder, const char* name, const char* needed_by, const char* file, int line) {
  const std::string path = std::string(CUDA_EMU_TABLES_DIR) + "/" + folder + "/" + name;
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
    const std::string what = std::string(needed_by) + " without the emulator's measured table " + path +
                             " (mdbook-evidence writes it when it builds a program that needs it)";
    refuse_feature(file, line, what.c_str());
  }
  return t;
}

const Table& sine_table(const char* file, int line) {
  static const Table t = map_table("sine", "mufu_sine.u32", "the hardware sine and cosine", file, line);
  return t;
}

}  // namespace

namespace math {
// __sincosf of x, as the H200 computes it: the rule holds for every
// non-negative float (tests/cuda/fitting/mufu_range.txt, 0 conflicts), the
// sine is odd and the cosine even, and infinities and NaN give the GPU's
// NaN, 0x7fffffff.
void hardware_sincos(float x, float* s, float* c, const char* file, int line) {
  if (!std::isfinite(x)) {
    *s = *c = bits_float(kGpuNanF);
    return;
  }
  if (std::signbit(x)) {
    hardware_sincos(-x, s, c, file, line);
    *s = -*s;
    return;
  }
  const Table& t = sine_table(file, line);
  const float turns = rounding::mul<float>(x, 0.159154943f, rounding::kRZ);
  const float fraction = turns - std::floor(turns);
  const uint32_t k = static_cast<uint32_t>(fraction * 33554432.0f) & (kFractions - 1);
  *s = bits_float(t.entries[k]);
  *c = bits_float(t.entries[(k + (kFractions >> 2)) & (kFractions - 1)]);
}


const uint32_t kSeedFirst = 0x3ffb0000u;

// The seed's high word for the argument high word `high`, which CUDA's log
// reduction keeps within the table (a high word outside it is a bug here).
uint32_t reciprocal_high(uint32_t high) {
  static const Table t = map_table("rcp64h", "rcp64h.u32", "CUDA's double log (in device code or cuRAND's double normal)", "log", 0);
  if (high < kSeedFirst || high - kSeedFirst >= t.count) {
    fprintf(stderr, "cuda_emu: internal error: the reciprocal seed of high word %08x is outside the table\n", high);
    abort();
  }
  return t.entries[high - kSeedFirst];
}

uint32_t mufu_rcp_entry(uint32_t fraction) {
  static const Table t = map_table("mufu_rcp", "mufu_rcp.u32", "the hardware's float reciprocal (CUDA's tanf, atanf, powf, ...)", "rcp", 0);
  if (fraction >= t.count) {
    fprintf(stderr, "cuda_emu: internal error: the float reciprocal's table has no entry %u\n", fraction);
    abort();
  }
  return t.entries[fraction];
}

uint32_t mufu_rsq_entry(uint32_t index) {
  static const Table t = map_table("mufu_rsq", "mufu_rsq.u32", "the hardware's float reciprocal square root (CUDA's rsqrtf, asinf, acosf, ...)", "rsqrt", 0);
  if (index >= t.count) {
    fprintf(stderr, "cuda_emu: internal error: the float reciprocal square root's table has no entry %u\n", index);
    abort();
  }
  return t.entries[index];
}
}  // namespace math
}  // namespace cuda_emu
