// cuda_emu_sanitize.cpp: compute-sanitizer's four checks on the CPU, and the device
// memory arena (see cuda_emu_sanitize.h for the hooks).
//
// Why: a student without a GPU has no compute-sanitizer, and the emulator runs a
// block's threads one after another, so a missing barrier or a read of memory never
// written gives a wrong answer and no diagnostic. Here every memory access of a
// sanitize build (g++ -fsanitize=thread instrumentation, served by the shim, no
// sanitizer library) is checked against shadow state that knows each access's
// thread, block, barrier interval and instruction, and the findings are reported in
// compute-sanitizer's words, so that either tool's output reads the same:
//
// - memcheck: a kernel access outside every live device allocation ("Invalid
//   __global__ write of size 4 bytes ... is 1,025 bytes after the nearest
//   allocation"), freed memory included; dynamic shared memory past its end; every API
//   call that returns an error ("Program hit ... on CUDA API call to cudaFree"); with
//   --leak-check full, the allocations never freed ("LEAK SUMMARY: N bytes leaked in M
//   allocations"). An error stops the kernel after its block (the GPU stops it too):
//   every later call returns 719, as under compute-sanitizer.
// - racecheck: shared memory, per byte: the last write (thread, barrier interval,
//   __syncwarp count of its warp, instruction) and the last read. A read of a byte that
//   another thread wrote in the same interval, a write of a byte that another thread
//   read or wrote, is a hazard; hazards are counted per byte and grouped by their two
//   instructions, one "Race reported between Write access at FILE:LINE and Read access
//   at FILE:LINE [N hazards]" per pair. Hazards between lanes of one warp are warnings
//   (compute-sanitizer's "Warp Level Programming"), an aggregate with a hazard between
//   warps is an error. The shadow does not depend on the order threads run in.
//   Device memory (the live allocations) is checked the same way, a check compute-
//   sanitizer does not make (its racecheck watches shared memory only): its reports
//   and its own summary line say so, and the evidence comparison leaves them out
//   (src/workflow/sanitizers.rs). Its shadow is pages made when a block first touches
//   them and recycled at the next block (see global_access).
// - memcheck of static __shared__ arrays: an access in the guard that cuda_runtime.h
//   puts past the program's static __shared__ (thread_local) variables is an invalid
//   __shared__ access; without memcheck the kernel stops with cudaErrorIllegalAddress,
//   as the GPU's hardware stops it.
// - synccheck: a __syncwarp whose mask leaves out a calling lane ("Barrier error
//   detected. Invalid arguments." for each lane of the warp); the kernel stops.
// - initcheck: one bit per byte of each device allocation, set by kernel writes, host
//   writes, cudaMemcpy and cudaMemset; a kernel read of a byte never set is
//   "Uninitialized __global__ memory read of size N bytes".
//
// Source lines come from the program's debug line table (sanitize builds use -g), named
// by the file's name without its folder, as compute-sanitizer names them: the
// return address of the __tsan_* call is resolved with binutils' addr2line at report
// time, once per instruction. addr2line ships with binutils, which g++ needs anyway
// (as and ld), so it is wherever the emulator can compile; without it a report names
// the kernel and says the line is unknown.
#include "cuda_emu_sanitize.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>
#include <string>
#include <vector>

// The instrumented program defines this (cuda_runtime.h, CUDA_EMU_SANITIZE_BUILD); a
// program built without instrumentation cannot be sanitized and says so.
extern "C" {
__attribute__((weak)) extern const int cuda_emu_instrumented;
}

namespace cuda_emu {
namespace san {

bool g_on = false;
bool g_memcheck = false, g_racecheck = false, g_synccheck = false, g_initcheck = false;
int g_schedule = 0;
unsigned long long g_schedule_seed = 0;

namespace {

bool g_leak_check = false;
int g_error_exitcode = -1;
bool g_several = false;  // more than one tool: each summary names its tool
bool g_in_kernel = false;
bool g_finished = false;
const char* g_kernel = "(kernel)";
unsigned long long g_errors[4];  // memcheck, (racecheck: see g_race_*), synccheck, initcheck
bool g_block_failed = false;
bool g_block_fault = false;  // an access the GPU's hardware faults on (outside memcheck)
// The guard past the program's static __shared__ variables (cuda_runtime.h), on this OS
// thread: an access there left the block's shared memory.
char* (*g_guard_fn)() = nullptr;
size_t g_guard_size = 0;
uintptr_t g_guard_lo = 0, g_guard_hi = 0;
bool g_race_off = false;  // this launch is not race-checked
uintptr_t g_buffer_lo = 0, g_buffer_hi = 0;  // the buffer holding the dynamic shared memory
unsigned long long g_race_errors = 0, g_race_warnings = 0;
// The shadow state's size: initcheck's bits now, and the most they and the shared
// memory cells ever took (CUDA_EMU_SANITIZE_STATS=1 prints it at exit).
size_t g_bits_now = 0, g_shadow_peak = 0;
size_t shadow_cells_bytes();
void note_shadow() {
  size_t now = g_bits_now + shadow_cells_bytes();
  if (now > g_shadow_peak) g_shadow_peak = now;
}

// ---- Output: compute-sanitizer's prefix, on stderr (the program's stdout stays its own).
void out(const std::string& s) {
  fflush(stdout);
  if (write(2, s.data(), s.size())) {}
}
std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return std::string(buf, n < 0 ? 0 : n < static_cast<int>(sizeof buf) ? n : sizeof buf - 1);
}
std::string commas(size_t v) {
  std::string d = std::to_string(v), r;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i != 0 && (d.size() - i) % 3 == 0) r += ',';
    r += d[i];
  }
  return r;
}
std::string plural(unsigned long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// ---- Source lines ----------------------------------------------------------------------
struct Where {
  std::string function;  // as addr2line names it
  std::string line;      // FILE:LINE, or "" when unknown
};
// Never destroyed: the summaries run at exit, after static destructors may have.
std::map<const void*, Where>& g_where = *new std::map<const void*, Where>;

bool shim_file(const std::string& file) {
  size_t slash = file.rfind('/');
  std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
  static const char* kShim[] = {"cuda_runtime.h", "cooperative_groups.h", "cuda_fp16.h",
                                "cuda_bf16.h", "curand_kernel.h", "cuda_texture.h",
                                "cuda_emu_fp16_core.h", "math_constants.h"};
  for (const char* s : kShim)
    if (base == s) return true;
  return file.rfind("/usr/", 0) == 0;
}

const Where& where_of(const void* pc) {
  auto it = g_where.find(pc);
  if (it != g_where.end()) return it->second;
  Where w;
  Dl_info info;
  if (pc && dladdr(pc, &info) && info.dli_fbase) {
    uintptr_t at = reinterpret_cast<uintptr_t>(pc) - 1;  // inside the call instruction
    const Elf64_Ehdr* eh = static_cast<const Elf64_Ehdr*>(info.dli_fbase);
    if (eh->e_type == ET_DYN) at -= reinterpret_cast<uintptr_t>(info.dli_fbase);
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
      exe[len] = 0;
      std::string cmd = fmt("addr2line -f -C -i -e '%s' 0x%lx 2>/dev/null", exe,
                            static_cast<unsigned long>(at));
      if (FILE* p = popen(cmd.c_str(), "r")) {
        char fn[2048], loc[2048];
        std::vector<Where> frames;
        while (fgets(fn, sizeof fn, p) && fgets(loc, sizeof loc, p)) {
          fn[strcspn(fn, "\n")] = 0;
          loc[strcspn(loc, "\n ")] = 0;
          frames.push_back(Where{fn, loc});
        }
        pclose(p);
        for (const Where& f : frames) {
          std::string file = f.line.substr(0, f.line.rfind(':'));
          if (f.line.rfind("??", 0) == 0 || shim_file(file)) continue;
          w = f;
          // The file's own name, as compute-sanitizer writes it: the folder addr2line
          // puts before it is the one the build ran in (a cached build's may be another
          // copy of the same program).
          size_t slash = w.line.rfind('/');
          if (slash != std::string::npos) w.line = w.line.substr(slash + 1);
          break;
        }
      }
    }
  }
  if (w.function.empty()) w.function = g_kernel;
  return g_where[pc] = w;
}

std::string at_line(const void* pc) {
  const Where& w = where_of(pc);
  if (w.line.empty()) return fmt("=========     at %s (line unknown)\n", w.function.c_str());
  return fmt("=========     at %s in %s\n", w.function.c_str(), w.line.c_str());
}

uint3 thread_of(unsigned tid) {
  unsigned bx = blockDim.x, by = blockDim.y;
  return uint3{tid % bx, (tid / bx) % by, tid / (bx * by)};
}
std::string by_thread(uint3 t) {
  return fmt("=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", t.x, t.y, t.z, blockIdx.x,
             blockIdx.y, blockIdx.z);
}
unsigned linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// ---- The arena ---------------------------------------------------------------------------
const size_t kReserve = 1ull << 40;  // address space only
const size_t kCommitStep = 64ull << 20;
const size_t kGranule = 512;  // the H200's cudaMalloc: 256 bytes take 512, 4096 take 4096
char* g_arena = nullptr;
size_t g_used = 0, g_committed = 0;
std::multimap<size_t, char*>& g_free = *new std::multimap<size_t, char*>;  // freed blocks (zeroed), reused when not sanitizing

bool reserve() {
  if (g_arena) return true;
  void* m = mmap(nullptr, kReserve + (2u << 20), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED) return false;
  uintptr_t base = (reinterpret_cast<uintptr_t>(m) + (2u << 20) - 1) & ~uintptr_t((2u << 20) - 1);
  g_arena = reinterpret_cast<char*>(base);
  return true;
}

// ---- Shadow of global memory: allocations and their initialized bits -----------------------
struct Live {
  size_t size;
  std::vector<uint64_t> init;  // one bit a byte (initcheck only)
};
std::map<uintptr_t, Live>& g_live = *new std::map<uintptr_t, Live>;
uintptr_t g_hit_lo = 1, g_hit_hi = 0;
Live* g_hit = nullptr;

Live* find_live(uintptr_t a, size_t n, uintptr_t* lo) {
  if (a >= g_hit_lo && a + n <= g_hit_hi) {
    *lo = g_hit_lo;
    return g_hit;
  }
  auto it = g_live.upper_bound(a);
  if (it == g_live.begin()) return nullptr;
  --it;
  if (a + n > it->first + it->second.size) return nullptr;
  g_hit_lo = it->first;
  g_hit_hi = it->first + it->second.size;
  g_hit = &it->second;
  *lo = it->first;
  return g_hit;
}

void set_init(Live& l, size_t off, size_t n) {
  for (size_t i = off; i < off + n; ++i) l.init[i >> 6] |= 1ull << (i & 63);
}
bool all_init(const Live& l, size_t off, size_t n) {
  for (size_t i = off; i < off + n; ++i)
    if (!(l.init[i >> 6] & (1ull << (i & 63)))) return false;
  return true;
}

// ---- Shadow of shared memory ---------------------------------------------------------------
struct Cell {
  const void* wpc;
  const void* rpc;
  uint32_t wep, rep;      // barrier interval of the last write, read
  uint32_t wws, rws;      // __syncwarp count of the writer's, reader's warp then
  uint16_t wtid, rtid;
  uint8_t rmulti;         // other threads read in rep too: 1 of the reader's warp, 2 of another
};
struct Region {
  uintptr_t lo = 0, hi = 0;
  std::vector<Cell> cells;
};
Region& g_static = *new Region;
Region& g_dynamic = *new Region;  // static __shared__ (the program's thread_local block), extern
uint32_t g_epoch = 1;
uint32_t g_wsync[32];
size_t g_dynamic_bytes = 0;

// The program's own thread-local block on this OS thread: where `__shared__` (thread_local
// in the emulator) variables live.
int tls_range(struct dl_phdr_info* info, size_t, void* data) {
  if (info->dlpi_name && info->dlpi_name[0] != 0) return 0;  // the executable comes first, unnamed
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_TLS && info->dlpi_tls_data) {
      Region* r = static_cast<Region*>(data);
      r->lo = reinterpret_cast<uintptr_t>(info->dlpi_tls_data);
      r->hi = r->lo + info->dlpi_phdr[i].p_memsz;
    }
  }
  return 1;
}

struct Hazard {
  unsigned long long count = 0;
  bool error = false;  // between warps
};
// (write pc, other pc, other is a write)
using HazardMap = std::map<std::pair<std::pair<const void*, const void*>, bool>, Hazard>;
HazardMap& g_hazards = *new HazardMap;   // shared memory
HazardMap& g_ghazards = *new HazardMap;  // device memory (a check compute-sanitizer does not make)

void hazard(HazardMap& m, const void* wpc, const void* other, bool ww, unsigned t1, unsigned t2) {
  Hazard& h = m[{{wpc, other}, ww}];
  ++h.count;
  if ((t1 >> 5) != (t2 >> 5)) h.error = true;
}

inline bool ordered(unsigned t1, uint32_t ws1, unsigned t2) {
  // Lanes of one warp with a __syncwarp between them are ordered.
  return (t1 >> 5) == (t2 >> 5) && ws1 != g_wsync[t2 >> 5];
}

// One byte's access by thread t (its warp's __syncwarp count ws) against the byte's cell.
inline void check_cell(Cell& c, HazardMap& m, bool write, const void* pc, unsigned t, uint32_t ws) {
  if (write) {
    if (c.wep == g_epoch && c.wtid != t && !ordered(c.wtid, c.wws, t))
      hazard(m, c.wpc, pc, true, c.wtid, t);
    if (c.rep == g_epoch && (c.rtid != t || c.rmulti) && !ordered(c.rtid, c.rws, t))
      // When the last reader is this thread, another reader stands for it: one of
      // another warp if any (an error), else of this thread's warp (a warning).
      hazard(m, pc, c.rpc, false, c.rtid != t ? c.rtid : c.rmulti == 2 ? t ^ 32 : t ^ 1, t);
    c.wep = g_epoch;
    c.wtid = static_cast<uint16_t>(t);
    c.wws = ws;
    c.wpc = pc;
  } else {
    if (c.wep == g_epoch && c.wtid != t && !ordered(c.wtid, c.wws, t))
      hazard(m, c.wpc, pc, false, c.wtid, t);
    if (c.rep != g_epoch) {
      c.rep = g_epoch;
      c.rtid = static_cast<uint16_t>(t);
      c.rws = ws;
      c.rpc = pc;
      c.rmulti = 0;
    } else if (c.rtid != t) {
      uint8_t other = (c.rtid >> 5) != (t >> 5) ? 2 : 1;
      if (other > c.rmulti) c.rmulti = other;
    }
  }
}

void shared_access(Region& r, uintptr_t a, unsigned size, bool write, const void* pc) {
  unsigned t = linear_tid();
  uint32_t ws = g_wsync[(t >> 5) & 31];
  size_t off = a - r.lo;
  size_t end = off + size <= r.cells.size() ? off + size : r.cells.size();
  for (size_t i = off; i < end; ++i) check_cell(r.cells[i], g_hazards, write, pc, t, ws);
}

// ---- Shadow of device memory for racecheck ---------------------------------------------
// A page of cells for each 4 KiB of device memory a block touches, made on first touch
// and recycled when the next block starts: a recycled page's cells carry an older epoch
// (g_epoch grows at every block start), so they read as untouched without clearing, and
// the shadow is bounded by the footprint of one block, not by the device memory: 40 bytes
// a byte (sizeof(Cell)), 160 KiB a page. A block whose pages would pass 1 GiB (26 MiB
// of device memory) is checked in the pages it holds, no others, and says so.
const size_t kGPage = 4096;
struct GPage {
  Cell cells[kGPage];
};
// Pages at most (1 GiB of them; CUDA_EMU_RACECHECK_PAGES sets another bound, for tests).
size_t g_gpages_max = (1ull << 30) / sizeof(GPage);
std::vector<GPage*>& g_gpool = *new std::vector<GPage*>;  // every page made so far
size_t g_gpool_used = 0;                                 // those the block holds
std::unordered_map<uintptr_t, GPage*>& g_gmap = *new std::unordered_map<uintptr_t, GPage*>;
uintptr_t g_glast_no = ~uintptr_t(0);
GPage* g_glast = nullptr;
bool g_gfull = false;  // this block's footprint passed the bound (and it was said)
unsigned long long g_grace_errors = 0, g_grace_warnings = 0;
const char* const kCpuOnly =
    "(a check of the CPU emulator; compute-sanitizer's racecheck watches shared memory only)";

GPage* global_page(uintptr_t no) {
  if (no == g_glast_no) return g_glast;
  auto it = g_gmap.find(no);
  GPage* p;
  if (it != g_gmap.end()) {
    p = it->second;
  } else {
    if (g_gpool_used == g_gpool.size()) {
      if (g_gpool.size() >= g_gpages_max) return nullptr;
      // Zeroed: epoch 0 is older than any block's.
      g_gpool.push_back(static_cast<GPage*>(calloc(1, sizeof(GPage))));
      if (!g_gpool.back()) {
        g_gpool.pop_back();
        return nullptr;
      }
      note_shadow();
    }
    p = g_gpool[g_gpool_used++];
    g_gmap.emplace(no, p);
  }
  g_glast_no = no;
  g_glast = p;
  return p;
}

void global_access(uintptr_t a, unsigned size, bool write, const void* pc) {
  unsigned t = linear_tid();
  uint32_t ws = g_wsync[(t >> 5) & 31];
  for (uintptr_t b = a; b < a + size;) {
    GPage* p = global_page(b / kGPage);
    uintptr_t page_end = (b / kGPage + 1) * kGPage;
    uintptr_t end = a + size < page_end ? a + size : page_end;
    if (!p) {
      // Past the bound: the pages the block holds are still checked, no others.
      if (!g_gfull) {
        g_gfull = true;
        out(fmt("========= Warning: racecheck of __global__ memory does not check all of block "
                "(%u,%u,%u) of %s: it touched more than %zu KiB of device memory %s\n",
                blockIdx.x, blockIdx.y, blockIdx.z, g_kernel, g_gpages_max * kGPage >> 10,
                kCpuOnly));
      }
      b = end;
      continue;
    }
    for (; b < end; ++b) check_cell(p->cells[b % kGPage], g_ghazards, write, pc, t, ws);
  }
}

void global_block() {
  g_gmap.clear();
  g_gpool_used = 0;
  g_glast_no = ~uintptr_t(0);
  g_glast = nullptr;
  g_gfull = false;
}

size_t shadow_cells_bytes() {
  return (g_static.cells.capacity() + g_dynamic.cells.capacity()) * sizeof(Cell) +
         g_gpool.size() * sizeof(GPage);
}

void report_hazards(HazardMap& m, bool global) {
  for (const auto& kv : m) {
    const void* wpc = kv.first.first.first;
    const void* opc = kv.first.first.second;
    bool ww = kv.first.second;
    const Where& a = where_of(wpc);
    const Where& b = where_of(opc);
    std::string s = fmt("========= %s: Race reported between Write access at %s in %s\n",
                        kv.second.error ? "Error" : "Warning", a.function.c_str(),
                        a.line.empty() ? "(line unknown)" : a.line.c_str());
    s += fmt("=========     and %s access at %s in %s [%llu hazards]\n", ww ? "Write" : "Read",
             b.function.c_str(), b.line.empty() ? "(line unknown)" : b.line.c_str(),
             kv.second.count);
    if (global) s += fmt("=========     in __global__ memory %s\n", kCpuOnly);
    s += "========= \n";
    out(s);
    if (global)
      ++(kv.second.error ? g_grace_errors : g_grace_warnings);
    else
      ++(kv.second.error ? g_race_errors : g_race_warnings);
  }
  m.clear();
}

void report_hazards() {
  report_hazards(g_hazards, false);
  report_hazards(g_ghazards, true);
}

void report_invalid(const char* space, bool write, unsigned size, const void* pc, uintptr_t a,
                    const std::string& relative, const char* what = "out of bounds") {
  ++g_errors[0];
  g_block_failed = true;
  std::string s = fmt("========= Invalid %s %s of size %u bytes\n", space, write ? "write" : "read",
                      size);
  s += at_line(pc);
  s += by_thread(threadIdx);
  if (strcmp(what, "misaligned") == 0) {
    s += fmt("=========     Address 0x%lx is misaligned\n", static_cast<unsigned long>(a));
  } else {
    s += fmt("=========     Access to 0x%lx is out of bounds\n", static_cast<unsigned long>(a));
  }
  s += relative;
  s += "========= \n";
  out(s);
}

// "and is N bytes after the nearest allocation at L of size S bytes", memcheck's words.
std::string nearest(uintptr_t a) {
  const std::pair<const uintptr_t, Live>* best = nullptr;
  uintptr_t best_d = ~uintptr_t(0);
  auto it = g_live.upper_bound(a);
  if (it != g_live.end()) {
    best = &*it;
    best_d = it->first - a;
  }
  if (it != g_live.begin()) {
    --it;
    uintptr_t hi = it->first + it->second.size;
    uintptr_t d = a >= hi ? a - hi : 0;
    if (d <= best_d) {
      best = &*it;
      best_d = d;
    }
  }
  if (!best) return "";
  uintptr_t lo = best->first, hi = lo + best->second.size;
  std::string size = commas(best->second.size);
  if (a >= hi)
    return fmt("=========     and is %s bytes after the nearest allocation at 0x%lx of size %s bytes\n",
               commas(a - hi + 1).c_str(), static_cast<unsigned long>(lo), size.c_str());
  return fmt("=========     and is %s bytes before the nearest allocation at 0x%lx of size %s bytes\n",
             commas(lo - a).c_str(), static_cast<unsigned long>(lo), size.c_str());
}

void summaries() {
  if (g_memcheck) {
    if (g_leak_check) {
      unsigned long long bytes = 0, n = 0;
      std::string s;
      for (const auto& kv : g_live) {
        s += fmt("========= Leaked %s bytes at 0x%lx\n", commas(kv.second.size).c_str(),
                 static_cast<unsigned long>(kv.first));
        s += "========= \n";
        bytes += kv.second.size;
        ++n;
      }
      s += fmt("========= LEAK SUMMARY: %llu bytes leaked in %llu allocations\n", bytes, n);
      out(s);
      g_errors[0] += n;
    }
    out(fmt("========= ERROR SUMMARY: %s%s\n", plural(g_errors[0], "error", "errors").c_str(),
            g_several ? " (memcheck)" : ""));
  }
  if (g_racecheck) {
    unsigned long long shown = g_race_errors + g_race_warnings;
    out(fmt("========= RACECHECK SUMMARY: %s displayed (%s, %s)\n",
            plural(shown, "hazard", "hazards").c_str(),
            plural(g_race_errors, "error", "errors").c_str(),
            plural(g_race_warnings, "warning", "warnings").c_str()));
    // Device memory's hazards, counted apart: compute-sanitizer has no such line.
    unsigned long long global = g_grace_errors + g_grace_warnings;
    out(fmt("========= RACECHECK SUMMARY of __global__ memory: %s displayed (%s, %s) %s\n",
            plural(global, "hazard", "hazards").c_str(),
            plural(g_grace_errors, "error", "errors").c_str(),
            plural(g_grace_warnings, "warning", "warnings").c_str(), kCpuOnly));
  }
  if (g_synccheck)
    out(fmt("========= ERROR SUMMARY: %s%s\n", plural(g_errors[2], "error", "errors").c_str(),
            g_several ? " (synccheck)" : ""));
  if (g_initcheck)
    out(fmt("========= ERROR SUMMARY: %s%s\n", plural(g_errors[3], "error", "errors").c_str(),
            g_several ? " (initcheck)" : ""));
}

void at_exit() { finish(); }

}  // namespace

// ---- Settings --------------------------------------------------------------------------
void init() {
  if (const char* v = getenv("CUDA_EMU_SCHEDULE")) {
    if (strcmp(v, "reverse") == 0) {
      g_schedule = 1;
    } else if (strncmp(v, "random:", 7) == 0) {
      g_schedule = 2;
      g_schedule_seed = strtoull(v + 7, nullptr, 10);
    }
  }
  const char* v = getenv("CUDA_EMU_SANITIZE");
  if (!v || !*v || strcmp(v, "0") == 0) return;
  std::string tools = v;
  int n = 0;
  auto has = [&](const char* t) {
    bool yes = tools.find(t) != std::string::npos;
    n += yes;
    return yes;
  };
  g_memcheck = has("memcheck");
  g_racecheck = has("racecheck");
  g_synccheck = has("synccheck");
  g_initcheck = has("initcheck");
  g_several = n > 1;
  g_on = n > 0;
  if (!g_on) return;
  if (&cuda_emu_instrumented == nullptr) {
    fprintf(stderr, "cuda_emu: CUDA_EMU_SANITIZE is set but this program was not built for the "
            "sanitizers (use mdbook-evidence run --sanitize)\n");
    _exit(1);
  }
  if (const char* l = getenv("CUDA_EMU_LEAK_CHECK")) g_leak_check = strcmp(l, "full") == 0 || strcmp(l, "1") == 0;
  if (const char* e = getenv("CUDA_EMU_ERROR_EXITCODE")) g_error_exitcode = atoi(e);
  if (const char* e = getenv("CUDA_EMU_RACECHECK_PAGES")) g_gpages_max = strtoull(e, nullptr, 10);
  std::string names;
  for (const char* t : {"memcheck", "racecheck", "synccheck", "initcheck"})
    if (tools.find(t) != std::string::npos) names += names.empty() ? t : std::string(", ") + t;
  out("========= COMPUTE-SANITIZER (CPU emulation: " + names + ")\n");
  atexit(at_exit);
}

// ---- Arena --------------------------------------------------------------------------------
void* arena_alloc(size_t size) {
  if (!reserve()) return nullptr;
  size_t slot = (size + kGranule - 1) / kGranule * kGranule;
  if (!g_on) {
    auto it = g_free.find(slot);
    if (it != g_free.end()) {
      char* p = it->second;
      g_free.erase(it);
      return p;
    }
  }
  if (slot > kReserve - g_used) return nullptr;
  char* p = g_arena + g_used;
  g_used += slot;
  // Committed one step ahead, so an access just past the last buffer lands in device
  // memory (as on the GPU) rather than faulting.
  size_t want = (g_used + kCommitStep + kCommitStep - 1) / kCommitStep * kCommitStep;
  if (want > kReserve) want = kReserve;
  if (want > g_committed) {
    if (mprotect(g_arena + g_committed, want - g_committed, PROT_READ | PROT_WRITE) != 0) {
      g_used -= slot;
      return nullptr;
    }
    g_committed = want;
  }
  return p;
}

bool arena_owns(const void* p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p), lo = reinterpret_cast<uintptr_t>(g_arena);
  return g_arena && a >= lo && a < lo + g_committed;
}

void arena_free(void* p, size_t size) {
  size_t slot = (size + kGranule - 1) / kGranule * kGranule;
  // Zeroed now, so a reused block reads as zeros like a new one; large blocks give their
  // pages back.
  char* c = static_cast<char*>(p);
  uintptr_t lo = (reinterpret_cast<uintptr_t>(c) + 4095) & ~uintptr_t(4095);
  uintptr_t hi = (reinterpret_cast<uintptr_t>(c) + slot) & ~uintptr_t(4095);
  if (slot >= (1u << 20) && hi > lo) {
    memset(c, 0, lo - reinterpret_cast<uintptr_t>(c));
    madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
    memset(reinterpret_cast<void*>(hi), 0, reinterpret_cast<uintptr_t>(c) + slot - hi);
  } else {
    memset(c, 0, slot);
  }
  if (!g_on) g_free.emplace(slot, c);  // sanitized: never reused, so a stale pointer is caught
}

// ---- Hooks ----------------------------------------------------------------------------------
void on_alloc(void* p, size_t size) {
  if (!g_on) return;
  Live l;
  l.size = size;
  if (g_initcheck) l.init.assign((size + 63) / 64, 0);
  g_bits_now += l.init.size() * 8;
  note_shadow();
  g_live[reinterpret_cast<uintptr_t>(p)] = std::move(l);
  g_hit_lo = 1;
  g_hit_hi = 0;
}

void on_free(void* p) {
  if (!g_on) return;
  auto it = g_live.find(reinterpret_cast<uintptr_t>(p));
  if (it != g_live.end()) g_bits_now -= it->second.init.size() * 8;
  g_live.erase(reinterpret_cast<uintptr_t>(p));
  g_hit_lo = 1;
  g_hit_hi = 0;
}

void on_init(const void* p, size_t n) {
  if (!g_initcheck || n == 0) return;
  uintptr_t lo;
  Live* l = find_live(reinterpret_cast<uintptr_t>(p), n, &lo);
  if (l) set_init(*l, reinterpret_cast<uintptr_t>(p) - lo, n);
}

void on_launch(const char* kernel, const char* file, int line, bool cooperative,
               void* dynamic_shared, size_t dynamic_bytes, const void* buffer_lo,
               const void* buffer_hi) {
  if (!g_on) return;
  g_in_kernel = true;
  g_race_off = false;
  if (cooperative && g_racecheck) {
    g_race_off = true;
    out(fmt("========= racecheck: the cooperative launch of %s at %s:%d is not checked (its blocks "
            "run at once on the CPU)\n", kernel ? kernel : "(kernel)", file, line));
  }
  g_buffer_lo = reinterpret_cast<uintptr_t>(buffer_lo);
  g_buffer_hi = reinterpret_cast<uintptr_t>(buffer_hi);
  g_kernel = kernel ? kernel : "(kernel)";
  g_dynamic.lo = reinterpret_cast<uintptr_t>(dynamic_shared);
  g_dynamic.hi = g_dynamic.lo + dynamic_bytes;
  g_dynamic_bytes = dynamic_bytes;
  if (g_racecheck && g_dynamic.cells.size() < dynamic_bytes) g_dynamic.cells.resize(dynamic_bytes);
  note_shadow();
}

void on_block() {
  if (!g_on) return;
  ++g_epoch;
  if (g_racecheck) global_block();
  static pthread_t last_thread;
  static bool known = false;
  if (!known || !pthread_equal(last_thread, pthread_self())) {
    // Once per OS thread that runs blocks (cooperative launches use several).
    known = true;
    last_thread = pthread_self();
    Region r;
    dl_iterate_phdr(tls_range, &r);
    g_static.lo = r.lo;
    g_static.hi = r.hi;
    if (g_guard_fn) {
      g_guard_lo = reinterpret_cast<uintptr_t>(g_guard_fn());
      g_guard_hi = g_guard_lo + g_guard_size;
    }
    if (g_racecheck && g_static.cells.size() < r.hi - r.lo) {
      g_static.cells.resize(r.hi - r.lo);
      note_shadow();
    }
  }
}

void on_barrier() { ++g_epoch; }

void on_syncwarp(int warp) { ++g_wsync[warp & 31]; }

cudaError_t block_error() {
  if (!g_on) return cudaSuccess;
  return g_block_failed ? cudaErrorLaunchFailure
         : g_block_fault ? cudaErrorIllegalAddress
                         : cudaSuccess;
}

void shared_guard(char* (*guard)(), unsigned long size) {
  g_guard_fn = guard;
  g_guard_size = size;
}

void on_launch_end() {
  if (!g_on) return;
  g_in_kernel = false;
  g_block_failed = false;
  g_block_fault = false;
  if (g_racecheck) report_hazards();
}

void on_api_error(cudaError_t e) {
  if (!g_memcheck || e == cudaSuccess) return;
  // The API function the program called: the outermost cuda* frame (sanitize builds link
  // with -rdynamic, so the runtime's functions have names).
  void* frames[64];
  int n = backtrace(frames, 64);
  std::string api;
  auto api_name = [](const void* at) -> std::string {
    Dl_info info;
    if (!dladdr(at, &info) || !info.dli_sname) return "";
    int status = 0;
    char* d = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    std::string name = status == 0 && d ? d : info.dli_sname;
    free(d);
    name = name.substr(0, name.find('('));
    if (name.size() > 4 && name.compare(0, 4, "cuda") == 0 && name[4] >= 'A' && name[4] <= 'Z')
      return name;
    return "";
  };
  for (int i = 1; i < n; ++i) {
    std::string name = api_name(frames[i]);
    // An API function that ends in a tail call has no frame of its own: the
    // caller's `call` instruction (e8 rel32, just before the return address) names it.
    const unsigned char* ret = static_cast<const unsigned char*>(frames[i]);
    if (name.empty() && ret[-5] == 0xe8) {
      int32_t rel;
      memcpy(&rel, ret - 4, 4);
      name = api_name(ret + rel);
    }
    if (!name.empty()) api = name;
  }
  ++g_errors[0];
  out(fmt("========= Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.\n========= \n",
          cudaGetErrorName(e), static_cast<int>(e), cudaGetErrorString(e),
          api.empty() ? "(unknown)" : api.c_str()));
}

void sync_error(const char* file, int line, int warp, unsigned lanes) {
  if (!g_synccheck) return;
  std::string s;
  for (unsigned r = lanes; r; r &= r - 1) {
    unsigned tid = static_cast<unsigned>(warp) * 32 + __builtin_ctz(r);
    s += "========= Barrier error detected. Invalid arguments.\n";
    s += "=========     at __syncwarp(unsigned int)\n";
    s += by_thread(thread_of(tid));
    s += fmt("=========         Device Frame: %s in %s:%d\n", g_kernel, file, line);
    s += "========= \n";
    ++g_errors[2];
  }
  out(s);
}

void fault_line(const void* pc, char* buf, size_t n) {
  const Where& w = where_of(pc);
  snprintf(buf, n, "%s", w.line.c_str());
}

void local_fault(bool write, unsigned size, const void* pc, uintptr_t a) {
  report_invalid("__local__", write, size, pc, a, "");
}

void finish() {
  if (!g_on || g_finished) return;
  g_finished = true;
  if (g_in_kernel && g_racecheck) report_hazards();
  summaries();
  if (const char* v = getenv("CUDA_EMU_SANITIZE_STATS"); v && strcmp(v, "1") == 0)
    out(fmt("========= shadow state: %zu bytes at most (%zu bytes a shared-memory byte, 1 bit a "
            "device-memory byte)\n", g_shadow_peak, sizeof(Cell)));
  unsigned long long total = g_errors[0] + g_errors[2] + g_errors[3] + g_race_errors + g_race_warnings +
                             g_grace_errors + g_grace_warnings;
  if (total > 0 && g_error_exitcode >= 0) {
    fflush(stdout);
    _exit(g_error_exitcode);
  }
}

// ---- Every access ------------------------------------------------------------------------------
void access(const void* addr, unsigned size, bool write, const void* pc, bool aligned) {
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  uintptr_t arena = reinterpret_cast<uintptr_t>(g_arena);
  if (a - arena < kReserve) {
    uintptr_t lo;
    Live* l = find_live(a, size, &lo);
    if (!g_in_kernel) {
      if (write && l && g_initcheck) set_init(*l, a - lo, size);
      return;
    }
    if (aligned && g_memcheck && (a & (size - 1)) != 0) {
      // A typed access at an address its type does not allow: the GPU faults.
      report_invalid("__global__", write, size, pc, a, "", "misaligned");
      return;
    }
    if (!l) {
      if (g_memcheck) report_invalid("__global__", write, size, pc, a, nearest(a));
      return;
    }
    if (g_racecheck && !g_race_off) global_access(a, size, write, pc);
    if (g_initcheck) {
      if (write) {
        set_init(*l, a - lo, size);
      } else if (!all_init(*l, a - lo, size)) {
        ++g_errors[3];
        std::string s = fmt("========= Uninitialized __global__ memory read of size %u bytes\n", size);
        s += at_line(pc);
        s += by_thread(threadIdx);
        s += fmt("=========     Address 0x%lx\n", static_cast<unsigned long>(a));
        s += "========= \n";
        out(s);
      }
    }
    return;
  }
  if (!g_in_kernel) return;
  if (a + size > g_guard_lo && a < g_guard_hi) {
    // Past the end of the program's static __shared__ variables: out of the block's
    // shared memory. memcheck reports it; without memcheck the GPU's hardware faults
    // (cudaErrorIllegalAddress) and the kernel stops.
    if (g_memcheck)
      report_invalid("__shared__", write, size, pc, a, "");
    else
      g_block_fault = true;
    return;
  }
  if (aligned && g_memcheck && (a & (size - 1)) != 0 &&
      ((a >= g_static.lo && a < g_static.hi) || (a >= g_dynamic.lo && a < g_dynamic.hi))) {
    report_invalid("__shared__", write, size, pc, a, "", "misaligned");
    return;
  }
  if (a >= g_static.lo && a < g_static.hi) {
    if (g_racecheck && !g_race_off) shared_access(g_static, a, size, write, pc);
    return;
  }
  if (a >= g_dynamic.lo && a + size <= g_dynamic.hi) {
    if (g_racecheck && !g_race_off) shared_access(g_dynamic, a, size, write, pc);
    return;
  }
  // Outside the dynamic shared memory but inside the buffer that holds it (its slack of
  // at least 128 bytes): memcheck's __shared__ error.
  if (g_memcheck && a >= g_buffer_lo && a < g_buffer_hi) {
    std::string rel;
    if (a >= g_dynamic.hi)
      rel = fmt("=========     and is %s bytes after the end of the %s bytes of dynamic shared memory "
                "(extern __shared__)\n", commas(a - g_dynamic.hi + 1).c_str(),
                commas(g_dynamic_bytes).c_str());
    else
      rel = fmt("=========     and is %s bytes before the start of the %s bytes of dynamic shared "
                "memory (extern __shared__)\n", commas(g_dynamic.lo - a).c_str(),
                commas(g_dynamic_bytes).c_str());
    report_invalid("__shared__", write, size, pc, a, rel);
  }
}

}  // namespace san
}  // namespace cuda_emu
