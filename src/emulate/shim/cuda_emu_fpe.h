// Invalid float operations in device code, made to give the H200's answers.
// Included once, by cuda_emu.cpp (inside its anonymous namespace).
//
// An invalid float operation (0/0, inf - inf, 0 * inf, sqrt of a negative, a
// float converted to an integer it does not fit) gives different bits on the
// two machines (tests/cuda/float_invalid.cu, recorded on the H200):
// - float arithmetic: the H200 makes the NaN 0x7fffffff (printed "nan"), x86 the
//   "default NaN" 0xffc00000 ("-nan"); in double precision both make
//   0xfff8000000000000;
// - float or double to a 32- or 64-bit integer: the H200 clamps to the integer's
//   range (and gives 0 for a float NaN made a 32-bit integer, the lowest integer
//   for the other NaNs); x86 gives the "integer indefinite", the lowest integer,
//   for every NaN and out-of-range value.
// x86 raises the invalid-operation exception for exactly these operations (and for
// ordered comparisons with a NaN), so while device code runs the exception is
// unmasked (MXCSR.IM cleared, `Unmasked`) and the SIGFPE that follows is handled
// here, at the instruction:
// - a scalar conversion to an integer register (cvt(t)ss2si, cvt(t)sd2si, legacy
//   or VEX) is done here as the H200 does it, and the program goes on after it;
// - a scalar float operation gets the NaN 0x7fffffff in its destination, and a
//   comparison the flags of an unordered result, here, without running it;
// - any other instruction runs once with the exception masked, under the trap flag
//   (single step); then, if it was float (not double) arithmetic, each lane of its
//   destination holding 0xffc00000 is given 0x7fffffff (`on_step`);
// - an instruction whose result this cannot know to be the H200's (a packed
//   conversion, a float result in memory, ...) is reported after the launch,
//   once per source line (`report_unknown_sites`).
// Conversions to an unsigned integer raise nothing on x86 where they differ
// (g++ makes them through a wider signed conversion, which wraps), and one
// instruction may serve several casts of a value, so they cannot be redone at the
// instruction. The CUDA unit is compiled with g++'s -fsanitize=float-cast-overflow
// instead: before a conversion of a value the target type cannot hold, the code
// calls the shim's __ubsan_handle_float_cast_overflow (`on_cast_overflow`), which,
// in device code, works out what the H200 gives (nvcc's code converts to a 32-bit
// integer, signed or unsigned as the target is, clamps, then cuts to the target's
// width: tests/cuda/float_narrow_conversions.cu) and what g++'s code and the
// handler above give, and where they differ warns after the launch, once per line.
// What stays different without a word: a NaN that came from the host keeps its
// bits through x86 arithmetic (the H200 gives 0x7fffffff), and negating a NaN
// flips its sign (nvcc's code gave 0x7fffffff).
//
// The instruction decoding is hand-written: only the prefixes, VEX forms and
// ModRM/SIB addressing of the SSE/AVX instructions g++ emits for float code are
// needed, and no decoder library is part of the shim's toolchain (g++ alone).

namespace fpe {

constexpr unsigned kInvalidMask = 1u << 7;  // MXCSR.IM
constexpr unsigned kInvalidFlag = 1u << 0;  // MXCSR.IE
constexpr unsigned kDefaultNaN = 0xffc00000u;
constexpr unsigned kGpuNaN = 0x7fffffffu;

// Whether this thread runs device code with the exception unmasked (a program's
// host code that unmasks it itself keeps the x86 behaviour: SIGFPE ends it).
thread_local int t_unmasked = 0;

// Clears MXCSR.IM for the life of the object (device code runs), then puts the
// control word back.
struct Unmasked {
  unsigned saved;
  Unmasked() {
    saved = __builtin_ia32_stmxcsr();
    __builtin_ia32_ldmxcsr(saved & ~kInvalidMask & ~kInvalidFlag);
    ++t_unmasked;
  }
  ~Unmasked() {
    --t_unmasked;
    __builtin_ia32_ldmxcsr(saved);
  }
};

// One decoded instruction: what the handler needs of it.
struct Insn {
  int len = 0;
  int pp = 0;   // implied prefix: 0 none, 1 66, 2 F3, 3 F2
  int map = 0;  // 1: 0F, 2: 0F 38, 3: 0F 3A
  int op = 0;
  bool w = false;   // REX.W / VEX.W
  bool l = false;   // VEX.L (256 bits)
  bool vex = false;
  int vvvv = 0;     // VEX.vvvv: the first source register of a VEX form
  int reg = 0;      // ModRM.reg, extended
  bool rm_reg = false;
  int rm = 0;       // ModRM.rm, extended, when rm_reg
  uintptr_t ea = 0; // the memory operand's address, otherwise
};

const int kGreg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                       REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

// False for anything but a (VEX-)0F instruction with a ModRM byte and no segment
// override that moves its address.
bool decode(const unsigned char* p, const ucontext_t* uc, Insn* in) {
  const unsigned char* start = p;
  bool rex_r = false, rex_x = false, rex_b = false;
  int legacy_pp = 0;
  for (int i = 0; i < 8; ++i, ++p) {
    unsigned char b = *p;
    if (b == 0x66) {
      if (legacy_pp == 0) legacy_pp = 1;
    } else if (b == 0xf3) {
      legacy_pp = 2;
    } else if (b == 0xf2) {
      legacy_pp = 3;
    } else if (b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36 || b == 0xf0) {
    } else if (b == 0x64 || b == 0x65) {
      return false;  // fs: or gs: (thread-local data): not for float arithmetic
    } else {
      break;
    }
  }
  if (*p == 0xc5) {
    rex_r = !(p[1] & 0x80);
    in->vex = true;
    in->vvvv = (~p[1] >> 3) & 15;
    in->l = p[1] & 4;
    in->pp = p[1] & 3;
    in->map = 1;
    p += 2;
  } else if (*p == 0xc4) {
    rex_r = !(p[1] & 0x80);
    rex_x = !(p[1] & 0x40);
    rex_b = !(p[1] & 0x20);
    in->map = p[1] & 0x1f;
    in->vex = true;
    in->vvvv = (~p[2] >> 3) & 15;
    in->w = p[2] & 0x80;
    in->l = p[2] & 4;
    in->pp = p[2] & 3;
    p += 3;
  } else {
    if ((*p & 0xf0) == 0x40) {
      in->w = *p & 8;
      rex_r = *p & 4;
      rex_x = *p & 2;
      rex_b = *p & 1;
      ++p;
    }
    if (*p != 0x0f) return false;
    ++p;
    in->map = 1;
    if (*p == 0x38 || *p == 0x3a) {
      in->map = *p == 0x38 ? 2 : 3;
      ++p;
    }
    in->pp = legacy_pp;
  }
  if (in->map < 1 || in->map > 3) return false;
  in->op = *p++;
  const unsigned char modrm = *p++;
  const int mod = modrm >> 6;
  in->reg = ((modrm >> 3) & 7) | (rex_r ? 8 : 0);
  const gregset_t& g = uc->uc_mcontext.gregs;
  if (mod == 3) {
    in->rm_reg = true;
    in->rm = (modrm & 7) | (rex_b ? 8 : 0);
  } else {
    int rm = modrm & 7;
    uintptr_t ea = 0;
    bool rip_relative = false;
    if (rm == 4) {
      const unsigned char sib = *p++;
      const int scale = sib >> 6, index = ((sib >> 3) & 7) | (rex_x ? 8 : 0), base = sib & 7;
      if (index != 4) ea += static_cast<uintptr_t>(g[kGreg[index]]) << scale;
      if (base == 5 && mod == 0) {
        int32_t d;
        memcpy(&d, p, 4);
        p += 4;
        ea += static_cast<uintptr_t>(static_cast<intptr_t>(d));
      } else {
        ea += static_cast<uintptr_t>(g[kGreg[base | (rex_b ? 8 : 0)]]);
      }
    } else if (rm == 5 && mod == 0) {
      rip_relative = true;
    } else {
      ea += static_cast<uintptr_t>(g[kGreg[rm | (rex_b ? 8 : 0)]]);
    }
    if (mod == 1) {
      ea += static_cast<uintptr_t>(static_cast<intptr_t>(static_cast<int8_t>(*p)));
      p += 1;
    } else if (mod == 2 || rip_relative) {
      int32_t d;
      memcpy(&d, p, 4);
      p += 4;
      ea += static_cast<uintptr_t>(static_cast<intptr_t>(d));
    }
    if (in->map == 3 || (in->map == 1 && (in->op == 0xc2 || in->op == 0xc6))) {
      // An immediate byte follows; the RIP-relative base counts it.
      if (rip_relative) ea += 1;
    }
    if (rip_relative) ea += reinterpret_cast<uintptr_t>(p);
    in->ea = ea;
  }
  if (in->map == 3 || (in->map == 1 && (in->op == 0xc2 || in->op == 0xc6))) ++p;
  in->len = static_cast<int>(p - start);
  return true;
}

// What nvcc's F2I gives for v as an integer of `bits` bits (32 or 64), signed or
// not: clamped to the range; a NaN is 0 from a float to a 32-bit integer, the
// lowest integer from a double to a signed one, 2^63 to an unsigned 64-bit one
// (float_invalid.cu, float_narrow_conversions.cu). Returned as the register's bits.
unsigned long long gpu_to_int(double v, bool from_float, int bits, bool is_signed) {
  if (is_signed) {
    const long long lo = bits == 32 ? INT32_MIN : INT64_MIN;
    const long long hi = bits == 32 ? INT32_MAX : INT64_MAX;
    long long r;
    if (std::isnan(v)) r = from_float && bits == 32 ? 0 : lo;
    else if (v >= -static_cast<double>(lo)) r = hi;
    else if (v <= static_cast<double>(lo)) r = lo;
    else r = static_cast<long long>(v);
    return bits == 32 ? static_cast<uint32_t>(r) : static_cast<unsigned long long>(r);
  }
  const double top = bits == 32 ? 4294967296.0 : 18446744073709551616.0;
  if (std::isnan(v)) return bits == 32 ? 0 : 1ull << 63;
  if (v <= -1.0) return 0;
  if (v >= top) return bits == 32 ? 0xffffffffull : ~0ull;
  return v < 0 ? 0 : static_cast<unsigned long long>(v);
}

// cvt(t)ss2si / cvt(t)sd2si into a general register: done here as nvcc's code does
// a conversion to the register's signed type. True if it was one.
bool convert(const Insn& in, ucontext_t* uc) {
  if (in.map != 1 || (in.op != 0x2c && in.op != 0x2d) || (in.pp != 2 && in.pp != 3)) return false;
  const bool single = in.pp == 2;
  double v;
  if (in.rm_reg) {
    const auto& x = uc->uc_mcontext.fpregs->_xmm[in.rm].element;
    if (single) {
      float f;
      memcpy(&f, &x[0], 4);
      v = f;
    } else {
      memcpy(&v, &x[0], 8);
    }
  } else if (single) {
    float f;
    memcpy(&f, reinterpret_cast<const void*>(in.ea), 4);
    v = f;
  } else {
    memcpy(&v, reinterpret_cast<const void*>(in.ea), 8);
  }
  const int bits = in.w ? 64 : 32;
  const unsigned long long r = gpu_to_int(v, single, bits, true);
  greg_t& dst = uc->uc_mcontext.gregs[kGreg[in.reg]];
  dst = bits == 32 ? static_cast<greg_t>(static_cast<uint32_t>(r)) : static_cast<greg_t>(r);
  uc->uc_mcontext.gregs[REG_RIP] += in.len;
  uc->uc_mcontext.fpregs->mxcsr &= ~kInvalidFlag;
  return true;
}

// Float (not double) arithmetic whose destination is the register ModRM.reg:
// sqrt, add, mul, sub, div (ps, ss) and the fused multiply-adds (VEX.W 0).
// *lanes: how many 32-bit lanes it writes.
bool float_arithmetic(const Insn& in, int* lanes) {
  if (in.map == 1 && (in.pp == 0 || in.pp == 2) &&
      (in.op == 0x51 || in.op == 0x58 || in.op == 0x59 || in.op == 0x5c || in.op == 0x5e)) {
    *lanes = in.pp == 2 ? 1 : (in.l ? 8 : 4);
    return true;
  }
  if (in.map == 2 && in.pp == 1 && !in.w && in.op >= 0x96 && in.op <= 0xbf &&
      (in.op & 0xf) >= 6) {
    const bool scalar = (in.op & 1) && (in.op & 0xf) >= 9;
    *lanes = scalar ? 1 : (in.l ? 8 : 4);
    return true;
  }
  return false;
}

// Instructions that raise the exception with a result the H200 gives alike (or
// none): comparisons, min/max, double arithmetic, conversions between float and
// double (a signalling NaN comes out quieted with its payload, shifted or cut,
// on both: tests/cuda/nan_convert.cu, recorded on an H100).
bool harmless(const Insn& in) {
  if (in.map == 1) {
    switch (in.op) {
      case 0xc2:             // cmp* (comis* never get here: unordered_compare)
      case 0x5d: case 0x5f:  // min, max
      case 0x5a:             // cvtss2sd, cvtsd2ss, cvtps2pd, cvtpd2ps
        return true;
      case 0x51: case 0x58: case 0x59: case 0x5c: case 0x5e:
        return in.pp == 1 || in.pp == 3;  // double
      default:
        return false;
    }
  }
  if (in.map == 2 && in.op >= 0x96 && in.op <= 0xbf) return in.w;  // double FMA
  return false;
}

// The single step in flight on this thread.
thread_local int t_step_lanes = 0;    // lanes to look at after it, 0: none
thread_local int t_step_reg = 0;
thread_local const void* t_step_pc = nullptr;

// Sites noted by the blocks of a launch (from signal handlers too, so lock-free),
// each once, taken for the report after the launch; the first 64 only.
template <class T>
struct Sites {
  static constexpr int kMax = 64;
  std::atomic<T> site[kMax];
  std::atomic<int> count{0};
  void note(T t) {
    const int n = count.load(std::memory_order_acquire);
    for (int i = 0; i < n && i < kMax; ++i)
      if (site[i].load(std::memory_order_relaxed) == t) return;
    const int at = count.fetch_add(1);
    if (at < kMax) site[at].store(t, std::memory_order_release);
  }
  std::vector<T> take() {
    std::vector<T> out;
    for (int i = 0, n = std::min(count.exchange(0), kMax); i < n; ++i) out.push_back(site[i].load());
    return out;
  }
};

// Instructions whose result could not be made the H200's.
Sites<const void*> g_unknown;
void note_unknown(const void* pc) { g_unknown.note(pc); }

// The upper halves of the YMM registers in the signal frame's XSAVE area, or null.
unsigned char* ymm_upper(ucontext_t* uc) {
  unsigned char* fx = reinterpret_cast<unsigned char*>(uc->uc_mcontext.fpregs);
  uint32_t magic, xfeatures_lo;
  // struct _fpx_sw_bytes in the reserved bytes: magic1, extended_size, xfeatures.
  memcpy(&magic, fx + 464, 4);
  memcpy(&xfeatures_lo, fx + 464 + 8, 4);
  if (magic != 0x46505853u || !(xfeatures_lo & 4)) return nullptr;
  return fx + 576;
}

// CUDA_EMU_FPE_STATS=1: how many invalid operations a run handled and stepped, and
// the first 16 sites with their counts, printed at exit. Counted only when asked
// for (the environment read once), so a trap pays nothing for it otherwise.
struct Stats {
  std::atomic<unsigned long long> handled{0}, steps{0};
  std::atomic<const void*> pc[16];
  std::atomic<unsigned long long> n[16];
  void count(const void* at) {
    handled.fetch_add(1, std::memory_order_relaxed);
    for (int i = 0; i < 16; ++i) {
      const void* cur = pc[i].load();
      if (cur == nullptr && !pc[i].compare_exchange_strong(cur, at) && cur != at) continue;
      if (cur != nullptr && cur != at) continue;
      n[i].fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
};
Stats* g_stats = nullptr;

void print_stats() {
  fprintf(stderr, "cuda_emu: %llu invalid float operations handled, %llu steps\n",
          g_stats->handled.load(), g_stats->steps.load());
  for (int i = 0; i < 16; ++i) {
    const void* pc = g_stats->pc[i].load();
    if (pc == nullptr) continue;
    char line[512] = "";
    san::fault_line(static_cast<const char*>(pc) + 1, line, sizeof line);
    fprintf(stderr, "  %llu at %p %s\n", g_stats->n[i].load(), pc, line);
  }
}

// Set up before any kernel runs (the handlers only read g_stats).
struct StatsSwitch {
  StatsSwitch() {
    const char* v = getenv("CUDA_EMU_FPE_STATS");
    if (v && strcmp(v, "1") == 0) g_stats = new Stats;
  }
} g_stats_switch;

// A scalar float operation that raised the exception has a NaN result, which on
// the H200 is 0x7fffffff: written here, as the instruction would write its
// destination, without running it (a single step costs a debug exception, tens
// of microseconds in a virtual machine). VEX forms copy lanes 1-3 from their
// first source (fused multiply-adds keep the destination's) and clear the upper
// half of the YMM register. False where that cannot be done here.
bool scalar_float_nan(const Insn& in, ucontext_t* uc) {
  int lanes = 0;
  if (!float_arithmetic(in, &lanes) || lanes != 1) return false;
  unsigned char* upper = nullptr;
  if (in.vex && (upper = ymm_upper(uc)) == nullptr) return false;
  auto& x = uc->uc_mcontext.fpregs->_xmm;
  const bool fma = in.map == 2;
  if (in.vex && !fma)
    for (int i = 1; i < 4; ++i) x[in.reg].element[i] = x[in.vvvv].element[i];
  x[in.reg].element[0] = kGpuNaN;
  if (upper != nullptr) memset(upper + 16 * in.reg, 0, 16);
  uc->uc_mcontext.gregs[REG_RIP] += in.len;
  uc->uc_mcontext.fpregs->mxcsr &= ~kInvalidFlag;
  return true;
}

// (u)comiss / (u)comisd raise it for a NaN operand: the flags of an unordered
// result (ZF, PF and CF set; OF, SF and AF clear), set here.
bool unordered_compare(const Insn& in, ucontext_t* uc) {
  if (in.map != 1 || (in.op != 0x2e && in.op != 0x2f) || in.pp > 1) return false;
  greg_t& flags = uc->uc_mcontext.gregs[REG_EFL];
  flags = (flags & ~static_cast<greg_t>(0x8d5)) | 0x45;
  uc->uc_mcontext.gregs[REG_RIP] += in.len;
  uc->uc_mcontext.fpregs->mxcsr &= ~kInvalidFlag;
  return true;
}

// SIGFPE of an invalid float operation in device code.
void on_invalid(ucontext_t* uc) {
  const unsigned char* pc = reinterpret_cast<const unsigned char*>(uc->uc_mcontext.gregs[REG_RIP]);
  if (g_stats != nullptr) g_stats->count(pc);
  Insn in;
  const bool known = decode(pc, uc, &in);
  if (known && (convert(in, uc) || scalar_float_nan(in, uc) || unordered_compare(in, uc))) return;
  int lanes = 0;
  if (known && float_arithmetic(in, &lanes)) {
    t_step_lanes = lanes;
    t_step_reg = in.reg;
  } else {
    t_step_lanes = 0;
    if (!known || !harmless(in)) note_unknown(pc);
  }
  t_step_pc = pc;
  // Run the instruction once, masked, then trap (on_step).
  uc->uc_mcontext.fpregs->mxcsr |= kInvalidMask;
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
}

// SIGTRAP after the single step: the float lanes the instruction made 0xffc00000
// become 0x7fffffff; the exception is unmasked again.
void on_step(ucontext_t* uc) {
  uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(0x100);
  auto& fp = *uc->uc_mcontext.fpregs;
  fp.mxcsr &= ~(kInvalidMask | kInvalidFlag);
  if (t_step_lanes > 0) {
    auto& x = fp._xmm[t_step_reg].element;
    for (int i = 0; i < t_step_lanes && i < 4; ++i)
      if (x[i] == kDefaultNaN) x[i] = kGpuNaN;
    if (t_step_lanes > 4) {
      unsigned char* hi = ymm_upper(uc);
      if (hi == nullptr) {
        note_unknown(t_step_pc);
      } else {
        for (int i = 0; i < 4; ++i) {
          unsigned char* lane = hi + 16 * t_step_reg + 4 * i;
          uint32_t v;
          memcpy(&v, lane, 4);
          if (v == kDefaultNaN) memcpy(lane, &kGpuNaN, 4);
        }
      }
    }
  }
  t_step_lanes = 0;
  t_step_pc = nullptr;
}

void on_trap(int, siginfo_t*, void* ucv) {
  if (g_stats != nullptr) g_stats->steps.fetch_add(1, std::memory_order_relaxed);
  on_step(static_cast<ucontext_t*>(ucv));
}

// g++'s -fsanitize=float-cast-overflow data (GCC 9 on: a source location first).
struct UbsanType {
  uint16_t kind;  // 0 integer, 1 float
  uint16_t info;  // integer: log2(bits) << 1 | signed; float: bits
  char name[1];
};
struct UbsanCastData {
  const char* file;
  uint32_t line, column;
  const UbsanType* from;
  const UbsanType* to;
};

// The integer bits (cut to `bits`) the H200 gives for v converted to an integer of
// `bits` bits, and those the emulator gives: g++'s code converts to an unsigned
// 32-bit integer through a signed 64-bit one, to an unsigned 64-bit one through a
// signed 64-bit one (v < 2^63), to a narrower one through a signed 32-bit one,
// and the handler above clamps what does not fit those.
unsigned long long gpu_cast(double v, bool from_float, int bits, bool is_signed) {
  const unsigned long long r = gpu_to_int(v, from_float, bits == 64 ? 64 : 32, is_signed);
  return bits == 64 ? r : r & ((1ull << bits) - 1);
}
unsigned long long emulated_cast(double v, bool from_float, int bits, bool is_signed) {
  unsigned long long r;
  if (std::isnan(v))
    r = gpu_to_int(v, from_float, bits == 64 || !is_signed ? 64 : 32, true);
  else if (!is_signed && bits >= 32 && v > -9223372036854775808.0 && v < 9223372036854775808.0)
    r = static_cast<unsigned long long>(static_cast<long long>(v));
  else if (!is_signed && bits == 64)
    r = gpu_to_int(v, from_float, 64, false);  // 2^63 and up, NaN: clamped by the handler
  else if (!is_signed && bits == 32)
    r = gpu_to_int(v, from_float, 64, true);  // through a signed 64-bit conversion
  else
    r = gpu_to_int(v, from_float, bits == 64 ? 64 : 32, true);
  return bits == 64 ? r : r & ((1ull << bits) - 1);
}

// Conversions whose emulated result differs from the H200's (their data is one
// per source location).
Sites<const UbsanCastData*> g_casts;

// A float or double converted in device code to an integer type that cannot hold
// it: noted when the emulator's bits differ from the H200's.
void on_cast_overflow(const UbsanCastData* data, uintptr_t value) {
  if (t_unmasked == 0 || data->to->kind != 0 || data->from->kind != 1) return;
  double v;
  if (data->from->info == 32) {
    float f;
    const uint32_t b = static_cast<uint32_t>(value);
    memcpy(&f, &b, 4);
    v = f;
  } else if (data->from->info == 64) {
    memcpy(&v, &value, 8);
  } else {
    return;  // long double: not device code's
  }
  const bool from_float = data->from->info == 32;
  const int bits = 1 << (data->to->info >> 1);
  const bool is_signed = data->to->info & 1;
  if (gpu_cast(v, from_float, bits, is_signed) == emulated_cast(v, from_float, bits, is_signed))
    return;
  g_casts.note(data);
}

// After a launch: each site the handler could not make the H200's, once per line,
// the conversions first.
void report_unknown_sites() {
  static std::set<std::string> reported;
  // The statistics print at exit, before the line table (cuda_emu_sanitize.cpp's, built
  // at start-up) is destroyed: registered after it, at the first launch.
  static bool stats_at_exit = g_stats != nullptr && atexit(print_stats) == 0;
  (void)stats_at_exit;
  std::vector<std::string> casts, lines;
  for (const UbsanCastData* d : g_casts.take()) {
    const std::string where = std::string(d->file) + ":" + std::to_string(d->line);
    if (!reported.insert(where).second) continue;
    casts.push_back(where + ": warning: a " + d->from->name + " converted to " + d->to->name +
                    " that does not fit it: the H200 clamps to the type's range (a negative "
                    "value to 0), the emulator gives x86's wrapped bits\n");
  }
  for (const void* pc : g_unknown.take()) {
    char line[512] = "";
    san::fault_line(static_cast<const char*>(pc) + 1, line, sizeof line);
    const std::string where = line[0] ? line : "device code (no line known)";
    if (!reported.insert(where).second) continue;
    lines.push_back(where + ": warning: an invalid float operation (a NaN made, or a float "
                    "converted to an integer it does not fit) that the emulator cannot give "
                    "the H200's bits: there float arithmetic makes the NaN 0x7fffffff and "
                    "conversions clamp, x86 makes 0xffc00000 and the lowest integer\n");
  }
  if (casts.empty() && lines.empty()) return;
  std::sort(casts.begin(), casts.end());
  std::sort(lines.begin(), lines.end());
  fflush(stdout);
  for (const std::string& text : casts) fputs(text.c_str(), stderr);
  for (const std::string& text : lines) fputs(text.c_str(), stderr);
}

}  // namespace fpe
