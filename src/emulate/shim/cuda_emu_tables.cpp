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
//     and others use them);
//   - the hardware 2^x (MUFU.EX2) on the floats of magnitude below one, a
//     table per sign kept as its breakpoints (for each result, the first
//     input magnitude that gives it), which cuda_emu_math.h's hardware_ex2
//     scales (CUDA's expf, exp2f, exp10f, __expf, __exp10f);
//   - the hardware log2 (MUFU.LG2) of the exponents 0, -1 and -2, three
//     tables over the mantissas, from which cuda_emu_math.h's hardware_lg2
//     takes every other exponent's (CUDA's __logf, __log2f, __log10f,
//     __powf, cbrtf, rcbrtf);
//   - the hardware hyperbolic tangent (MUFU.TANH, inline PTX
//     tanh.approx.f32) of the floats between 2^-8 and 8, kept as its
//     breakpoints (each input where the result changes, and that result),
//     which cuda_emu_math.h's hardware_tanh reads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

// Entry `index` of `t`; an index outside it is a bug here (the callers'
// reductions keep within each table), reported naming the table.
uint32_t entry(const Table& t, uint32_t index, const char* table) {
  if (index >= t.count) {
    fprintf(stderr, "cuda_emu: internal error: %s has no entry %u\n", table, index);
    abort();
  }
  return t.entries[index];
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
  return entry(t, high - kSeedFirst, "the reciprocal seed's table");  // below the first wraps past the end
}

uint32_t mufu_rcp_entry(uint32_t fraction) {
  static const Table t = map_table("mufu_rcp", "mufu_rcp.u32", "the hardware's float reciprocal (CUDA's tanf, atanf, powf, ...)", "rcp", 0);
  return entry(t, fraction, "the float reciprocal's table");
}

uint32_t mufu_lg2_entry(int table, uint32_t mantissa) {
  static const char* const kNeededBy = "the hardware's log2 (CUDA's __logf, __log2f, __powf, cbrtf, ...)";
  static const Table t[3] = {map_table("mufu_lg2_l", "mufu_lg2_l.u32", kNeededBy, "lg2", 0),
                             map_table("mufu_lg2_m", "mufu_lg2_m.u32", kNeededBy, "lg2", 0),
                             map_table("mufu_lg2_n", "mufu_lg2_n.u32", kNeededBy, "lg2", 0)};
  return entry(t[table], mantissa, "the hardware log2's table");
}

uint32_t mufu_rsq_entry(uint32_t index) {
  static const Table t = map_table("mufu_rsq", "mufu_rsq.u32", "the hardware's float reciprocal square root (CUDA's rsqrtf, asinf, acosf, ...)", "rsqrt", 0);
  return entry(t, index, "the float reciprocal square root's table");
}
namespace {
// One sign's breakpoints, and where each of the 2^16 ranges of magnitudes
// that share their top 16 bits starts among them (so that a lookup searches
// a few entries, not the 2^23).
struct Breakpoints {
  Table t;
  std::vector<uint32_t> start;
  Breakpoints(const char* folder, const char* name) {
    t = map_table(folder, name, "the hardware's 2^x (CUDA's expf, exp2f, exp10f, __expf, ...)", "ex2", 0);
    if (t.count < 2 || t.entries[0] != 0) {
      fprintf(stderr, "cuda_emu: internal error: the table %s/%s is not the hardware 2^x's\n", folder, name);
      abort();
    }
    start.resize((1u << 16) + 1);
    for (uint32_t range = 0; range <= (1u << 16); ++range) start[range] = last_at_most(range << 14, 0, t.count);
  }
  // The last entry in [lo, hi) at most `magnitude` (entry lo is).
  uint32_t last_at_most(uint32_t magnitude, uint32_t lo, uint32_t hi) const {
    const uint32_t* at = std::upper_bound(t.entries + lo, t.entries + hi, magnitude);
    return static_cast<uint32_t>(at - t.entries) - 1;
  }
};
}  // namespace

// Result k of a sign's table is 1 + k 2^-23 (positive) or 1 - k 2^-24; the
// last breakpoint at most the magnitude names it (a result the hardware never
// gives has the next one's breakpoint, so it is never the last).
uint32_t mufu_ex2_below_one(uint32_t bits) {
  static const Breakpoints positive("mufu_ex2_pos", "mufu_ex2_pos.u32");
  static const Breakpoints negative("mufu_ex2_neg", "mufu_ex2_neg.u32");
  const bool minus = (bits >> 31) != 0;
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x3f800000u) {
    fprintf(stderr, "cuda_emu: internal error: the hardware 2^x's table asked for %08x\n", bits);
    abort();
  }
  const Breakpoints& b = minus ? negative : positive;
  const uint32_t range = magnitude >> 14;
  const uint32_t k = b.last_at_most(magnitude, b.start[range], std::min<uint32_t>(b.start[range + 1] + 1, b.t.count));
  return minus ? 0x3f800000u - k : 0x3f800000u + k;
}

namespace {
// The hyperbolic tangent's breakpoints and results, and where each range of
// magnitudes that share their bits above the lowest 14 starts among the
// breakpoints (so that a lookup searches a few entries, not the 4 million).
struct TanhBreakpoints {
  static constexpr uint32_t kShift = 14;
  Table x, r;
  std::vector<uint32_t> start;
  TanhBreakpoints() {
    static const char* const kNeededBy = "the hardware's hyperbolic tangent (inline PTX tanh.approx.f32)";
    x = map_table("mufu_tanh_x", "mufu_tanh_x.u32", kNeededBy, "tanh", 0);
    r = map_table("mufu_tanh_r", "mufu_tanh_r.u32", kNeededBy, "tanh", 0);
    if (x.count < 2 || x.count != r.count || x.entries[0] != kTanhFirstBreakpoint) {
      fprintf(stderr, "cuda_emu: internal error: the tables mufu_tanh_x and mufu_tanh_r are not the hardware tanh's\n");
      abort();
    }
    const uint32_t ranges = (kTanhOne >> kShift) + 1;
    start.resize(ranges + 1);
    for (uint32_t range = 0; range <= ranges; ++range) {
      const uint32_t* at = std::upper_bound(x.entries, x.entries + x.count, range << kShift);
      start[range] = at == x.entries ? 0 : static_cast<uint32_t>(at - x.entries) - 1;
    }
  }
};
}  // namespace

// The result of the last breakpoint at most `magnitude` (the caller keeps it
// in [kTanhFirstBreakpoint, kTanhOne)).
uint32_t mufu_tanh_between(uint32_t magnitude) {
  static const TanhBreakpoints b;
  if (magnitude < kTanhFirstBreakpoint || magnitude >= kTanhOne) {
    fprintf(stderr, "cuda_emu: internal error: the hardware tanh's table asked for %08x\n", magnitude);
    abort();
  }
  const uint32_t range = magnitude >> TanhBreakpoints::kShift;
  const uint32_t hi = std::min<uint32_t>(b.start[range + 1] + 1, static_cast<uint32_t>(b.x.count));
  const uint32_t* at = std::upper_bound(b.x.entries + b.start[range], b.x.entries + hi, magnitude);
  return b.r.entries[at - b.x.entries - 1];
}
}  // namespace math
}  // namespace cuda_emu
