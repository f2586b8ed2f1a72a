// cuda_emu_lockstep.h: part of cuda_emu.cpp, included there (inside its anonymous
// namespace, after the block state) and nowhere else. Three things the warp lock step
// needs besides the meeting itself (cuda_emu.cpp, "Warp lock step"):
//
// 1. Source lines of access sites. A site is the return address of an instrumented
//    access. When the lanes of a divergent warp wait at different sites, the one
//    earliest in the source goes first (the then-part of an if before the code after
//    it, a loop's body before the code after the loop: where a GPU that reconverges
//    after the branch has its lanes wait). g++ lays blocks out in an order of its own,
//    so the order comes from the program's line table (it is built with -g1), read by
//    addr2line once for each batch of new sites; without it, the lowest address first.
//
// 2. Hazard warnings: where the emulator's order of two accesses to a shared-memory
//    word cannot be known to be the GPU's, it says so once for each pair of source
//    lines. Threads of different warps that access a word between two barriers (one
//    of them writing), and lanes of one warp on different paths of a divergent branch
//    (neither path's lanes included the other's lane when they met) that do so with no
//    warp synchronization between. The shadow state is per block (Block::lockstep);
//    only shared memory (static `__shared__` and `extern __shared__`) is watched, at
//    the cost of a range test and a word of shadow per access. With CUDA_EMU_SANITIZE
//    set, the first hazard is an error (status 1).
//
// 3. Lanes talking through other memory (global, managed, host): seen in a block whose
//    lanes meet, by a table of the words they access, so that the launch's later
//    blocks meet too (no warnings: in a block that meets, the order is the GPU's).
//
// Included in: cuda_emu.cpp. Needs: Block, Warp, Fiber, g_cur, B, g_launch,
// g_dynamic_shared_ptr, kernel_name, die, flush_device_printf.

extern thread_local void* g_dynamic_shared_ptr;  // defined in cuda_emu.cpp, further down (one per OS thread)

// ---- Source lines of sites --------------------------------------------------------
struct SiteLine {
  std::string file;
  int line = 0;  // 0: not known
};

std::map<const void*, SiteLine> g_site_lines;
pthread_mutex_t g_site_mutex = PTHREAD_MUTEX_INITIALIZER;

int exe_base_callback(dl_phdr_info* info, size_t, void* data) {
  *static_cast<uintptr_t*>(data) = info->dlpi_addr;
  return 1;  // the first object is the program itself
}

uintptr_t exe_base() {
  static uintptr_t base = [] {
    uintptr_t b = 0;
    dl_iterate_phdr(exe_base_callback, &b);
    return b;
  }();
  return base;
}

// Of the frames addr2line gives a site ("FILE:LINE", innermost first: a site inside
// functions inlined into others has several), the innermost one in the program's
// sources rather than in the shim's headers (a directory shim-HASH of the build cache:
// an atomic inlined into a kernel), else the innermost.
std::string program_frame(const std::vector<std::string>& frames) {
  for (const std::string& f : frames)
    if (f.find("/shim-") == std::string::npos) return f;
  return frames.empty() ? std::string() : frames.front();
}

// Looks up the lines of those `sites` not known yet, with one addr2line.
void lookup_site_lines(const void* const* sites, int n) {
  std::vector<const void*> todo;
  for (int i = 0; i < n; ++i)
    if (!g_site_lines.count(sites[i]) &&
        std::find(todo.begin(), todo.end(), sites[i]) == todo.end())
      todo.push_back(sites[i]);
  if (todo.empty()) return;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string cmd;
  if (len > 0 && !getenv("CUDA_EMU_NO_ADDR2LINE")) {
    exe[len] = 0;
    cmd = "addr2line -a -i -e '";
    cmd += exe;
    cmd += "'";
    for (const void* s : todo) {
      char hex[32];
      // The return address is past the call: the call's own line is one byte back.
      snprintf(hex, sizeof hex, " 0x%lx",
               static_cast<unsigned long>(reinterpret_cast<uintptr_t>(s) - 1 - exe_base()));
      cmd += hex;
    }
    cmd += " 2>/dev/null";
  }
  FILE* p = cmd.empty() ? nullptr : popen(cmd.c_str(), "r");
  // Each site's answer: its address (-a), then its frames (-i), one a line.
  std::vector<std::vector<std::string>> answers;
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) {
    std::string text(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.compare(0, 2, "0x") == 0) {
      answers.emplace_back();
    } else if (!answers.empty()) {
      answers.back().push_back(text);
    }
  }
  for (size_t i = 0; i < todo.size(); ++i) {
    const void* s = todo[i];
    SiteLine l;
    if (i < answers.size() && !answers[i].empty()) {
      std::string text = program_frame(answers[i]);
      size_t d = text.find(" (discriminator");
      if (d != std::string::npos) text.erase(d);
      size_t colon = text.rfind(':');
      if (colon != std::string::npos && text.compare(0, 2, "??") != 0) {
        l.file = text.substr(0, colon);
        l.line = atoi(text.c_str() + colon + 1);
        // The line table names the folder the build was first compiled from (builds
        // are cached by content, not by place): the launching file is named as the
        // program names it.
        const char* shown = g_launch != nullptr ? g_launch->file : nullptr;
        if (shown != nullptr && shown[0] != '/') {
          std::string tail = std::string("/") + shown;
          if (l.file.size() > tail.size() &&
              l.file.compare(l.file.size() - tail.size(), tail.size(), tail) == 0)
            l.file = shown;
        }
      }
    }
    g_site_lines[s] = l;
  }
  if (p) pclose(p);
}

const SiteLine& site_line(const void* site) {
  auto it = g_site_lines.find(site);
  if (it != g_site_lines.end()) return it->second;
  lookup_site_lines(&site, 1);
  return g_site_lines[site];
}

// Where a site stands in the source, to order lanes at different accesses: its file
// (a number for each file name) and line (0: not known). Each OS thread keeps the
// sites it asked about in a small direct-mapped cache, so that a divergent warp's
// meetings (a lane polling a flag another lane sets meets its warp at every poll)
// neither take the lock nor look up a string.
struct SiteOrder {
  int file = -1;
  int line = 0;
};

struct SiteOrderEntry {
  const void* site;
  SiteOrder order;
};
thread_local SiteOrderEntry g_site_orders[256];

SiteOrderEntry& site_order_slot(const void* site) {
  return g_site_orders[(reinterpret_cast<uintptr_t>(site) >> 1) & 255];
}

SiteOrder site_order(const void* site) {
  SiteOrderEntry& e = site_order_slot(site);
  if (e.site == site) return e.order;
  static std::map<std::string, int> files;
  pthread_mutex_lock(&g_site_mutex);
  const SiteLine& l = site_line(site);
  SiteOrder order;
  order.file = files.emplace(l.file, static_cast<int>(files.size())).first->second;
  order.line = l.line;
  pthread_mutex_unlock(&g_site_mutex);
  e = SiteOrderEntry{site, order};
  return order;
}

// Looks up, with one addr2line, those of `sites` (at most 32) this OS thread has not
// asked about yet.
void look_up_sites(const void* const* sites, int n) {
  const void* missing[32];
  int m = 0;
  for (int i = 0; i < n && m < 32; ++i)
    if (site_order_slot(sites[i]).site != sites[i]) missing[m++] = sites[i];
  if (m == 0) return;
  pthread_mutex_lock(&g_site_mutex);
  lookup_site_lines(missing, m);
  pthread_mutex_unlock(&g_site_mutex);
}

// Whether the lanes at site a go before those at site b: the earlier source line of
// the same file, else the lower address.
bool site_before(const void* a, const void* b) {
  const SiteOrder x = site_order(a), y = site_order(b);
  return (x.line && y.line && x.line != y.line && x.file == y.file) ? x.line < y.line : a < b;
}

// "FILE:LINE" of a site (FILE as the program was named, relative to the working
// directory when below it), or its address in the program.
std::string site_text(const void* site) {
  pthread_mutex_lock(&g_site_mutex);
  SiteLine l = site_line(site);
  pthread_mutex_unlock(&g_site_mutex);
  char buf[64];
  if (l.line == 0) {
    snprintf(buf, sizeof buf, "(program address 0x%lx)",
             static_cast<unsigned long>(reinterpret_cast<uintptr_t>(site) - exe_base()));
    return buf;
  }
  std::string file = l.file;
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) {
    std::string prefix = std::string(cwd) + "/";
    if (file.compare(0, prefix.size(), prefix) == 0) file.erase(0, prefix.size());
  }
  snprintf(buf, sizeof buf, ":%d", l.line);
  return file + buf;
}

// The lines of a source file, read once (empty when it cannot be read).
const std::vector<std::string>& source_lines(const std::string& file) {
  static std::map<std::string, std::vector<std::string>> files;
  auto it = files.find(file);
  if (it != files.end()) return it->second;
  std::vector<std::string>& lines = files[file];
  if (FILE* f = fopen(file.c_str(), "r")) {
    std::string line;
    for (int c; (c = fgetc(f)) != EOF;) {
      if (c == '\n') {
        lines.push_back(line);
        line.clear();
      } else {
        line += static_cast<char>(c);
      }
    }
    lines.push_back(line);
    fclose(f);
  }
  return lines;
}

bool has_word(const std::string& text, const char* word) {
  size_t n = strlen(word);
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool left = at == 0 || !(isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    bool right = at + n >= text.size() ||
                 !(isalnum(static_cast<unsigned char>(text[at + n])) || text[at + n] == '_');
    if (left && right) return true;
  }
  return false;
}

// Whether two sites reached by disjoint groups of a warp's lanes can be the two paths
// of one branch (an if and its else, two cases of a switch), whose order a GPU leaves
// to the compiler; else they are in sequence (two ifs one after the other: the warp
// reconverges between them, as the emulator's earliest-line-first order does). Read
// from the source between the two lines; when the lines or the file are not known,
// assume the worst.
bool alternative_paths(const void* a, const void* b) {
  pthread_mutex_lock(&g_site_mutex);
  SiteLine la = site_line(a), lb = site_line(b);
  pthread_mutex_unlock(&g_site_mutex);
  if (la.line == 0 || lb.line == 0 || la.file != lb.file) return true;
  const std::vector<std::string>& lines = source_lines(la.file);
  int lo = std::min(la.line, lb.line), hi = std::max(la.line, lb.line);
  if (lines.size() < static_cast<size_t>(hi)) return true;
  for (int i = lo == hi ? lo : lo + 1; i <= hi; ++i) {
    const std::string& t = lines[i - 1];
    if (has_word(t, "else") || has_word(t, "case") || has_word(t, "default")) return true;
  }
  return false;
}

// ---- Hazards in shared memory -----------------------------------------------------
// Per 4-byte word of shared memory: the last write and the last read since.
struct ShadowWord {
  unsigned w_epoch = 0;  // Lockstep::epoch of the write (0: none)
  unsigned w_sync = 0;   // the writing warp's sync count then
  unsigned w_group = 0;  // the lanes that met with the writer
  const void* w_site = nullptr;
  unsigned short w_warp = 0, w_lane = 0;
  unsigned r_epoch = 0;  // epoch of the reads below
  unsigned r_warps = 0;  // warps (mod 32) that read it in r_epoch
  unsigned r_sync = 0;
  unsigned r_group = 0;
  const void* r_site = nullptr;
  unsigned short r_warp = 0, r_lane = 0;
  bool w_plain = false;  // the last write was a plain store (not volatile)
  bool r_plain = false;  // the last read was a plain load
  unsigned w_step = 0, r_step = 0;  // the writer's and reader's Warp::step then
  // When the last write is volatile or atomic and its thread fenced before it in this
  // epoch (a release): that fence's place in the warp's order (sync count and step).
  unsigned w_rel_sync = 0, w_rel_step = 0;
  bool w_released = false;
  bool split = false;  // the word's bytes have cells of their own (Lockstep::Area::bytes)
};

// ---- Release and acquire ------------------------------------------------------------
// Warps of a block may also wait for one another without a barrier: a thread polls a
// volatile (or atomic) flag in shared memory until another warp's thread sets it, then
// reads what that warp wrote before setting it; a lock taken with atomicCAS guards
// shared data. With a memory fence on each side (the CUDA programming guide's form),
// the GPU's order is then the emulator's, whatever the timing. So a volatile or atomic
// write after a fence (__threadfence_block and the like; an __nv_atomic or libcu++
// atomic operation with an order other than relaxed counts as one, before a store,
// after a load, on both sides of a read-modify-write) is a release of what its warp
// did up to the fence, in the order lock
// step gives its lanes (sync count, then step); a volatile or atomic read of it by
// another thread acquires it, and that thread's accesses after its next fence (or an
// acquiring load) are ordered after the release: not reported. (An atomic load is a
// volatile read here, memory_access kind 5, not a write as other atomics.) Without
// the fences nvcc may keep such a value in a register or move the access, and the
// hazard is reported as before. The read that sees the flag itself is not reported
// when it is a wait: its thread polled the word before, or its source line is a
// `while` (a loop until the flag is set; a one-time `if (flag)` depends on the timing,
// on the GPU too); nor is the flag's volatile write after other warps' volatile reads
// at such a line (their polls of the unset flag). Not followed: orders passed on by
// another thread (through a third warp, or a release sequence: an atomic is recorded as
// its own thread's write, so lanes polling with atomicAdd(&flag, 0) acquire only from
// one another), more than four warps' releases at once per thread.

// Whether the running thread acquired a release of warp `warp` that covers that warp's
// access at (sync, step), and fenced since.
inline bool acquired_after(int warp, unsigned sync, unsigned step) {
  const Fiber* f = g_cur;
  const unsigned e = B.lockstep.epoch;
  for (const Fiber::Acquired& a : f->acquired)
    if (a.warp == warp && a.epoch == e && f->fences > a.fences &&
        (sync < a.sync || (sync == a.sync && step <= a.step)))
      return true;
  return false;
}

// The running thread read what the last write of `s` left: if that was a release, the
// thread acquires it.
inline void acquire(const ShadowWord& s) {
  if (!s.w_released) return;
  Fiber* f = g_cur;
  const unsigned e = B.lockstep.epoch;
  Fiber::Acquired* slot = nullptr;
  for (Fiber::Acquired& a : f->acquired)
    if (a.warp == s.w_warp && a.epoch == e) slot = &a;
  if (slot == nullptr) {
    slot = &f->acquired[f->acquired_next++ % 4];
  } else if (s.w_rel_sync < slot->sync ||
             (s.w_rel_sync == slot->sync && s.w_rel_step <= slot->step)) {
    return;  // no later than a release of that warp it saw
  }
  *slot = Fiber::Acquired{e, s.w_rel_sync, s.w_rel_step, f->fences, s.w_warp};
}

// Notes a volatile or atomic write to `s` by the running thread: a release when the
// thread fenced before it in this epoch.
inline void note_release(ShadowWord* s) {
  const Fiber* f = g_cur;
  s->w_released = f->fence_epoch == B.lockstep.epoch && f->fences != 0;
  s->w_rel_sync = f->fence_sync;
  s->w_rel_step = f->fence_step;
}

// Whether the running thread's last read of `addr` (a volatile read, see polled) found
// what is there now: its write to the word comes after the write it read.
inline bool read_current(const void* addr, unsigned size) {
  const unsigned long long* read = g_cur->polled_value(addr);
  if (size > 8 || read == nullptr) return false;
  unsigned long long now = 0;
  memcpy(&now, const_cast<const void*>(static_cast<const volatile void*>(addr)), size);
  return now == *read;
}

// Whether the source line of `site` is a `while` (the condition of a loop that waits),
// read once per site.
bool loop_condition_site(const void* site) {
  static std::map<const void*, bool> known;
  pthread_mutex_lock(&g_site_mutex);
  auto it = known.find(site);
  bool r;
  if (it != known.end()) {
    r = it->second;
  } else {
    SiteLine l = site_line(site);
    r = false;
    if (l.line > 0) {
      const std::vector<std::string>& lines = source_lines(l.file);
      r = static_cast<size_t>(l.line) <= lines.size() && has_word(lines[l.line - 1], "while");
    }
    known[site] = r;
  }
  pthread_mutex_unlock(&g_site_mutex);
  return r;
}

// Whether the running thread's read of `addr` at `site` is a wait: it polled the word
// before (see polled), or the line is a loop's condition.
bool waiting_read(const void* site, const void* addr) {
  return g_cur->polled_value(addr) != nullptr || loop_condition_site(site);
}

// The hazards already reported: once for each kind and source line where one is found.
std::vector<std::pair<int, std::string>> g_reported;
pthread_mutex_t g_report_mutex = PTHREAD_MUTEX_INITIALIZER;

bool settings_sanitize() {
  static bool on = [] {
    const char* v = getenv("CUDA_EMU_SANITIZE");
    return v && v[0] && strcmp(v, "0") != 0;
  }();
  return on;
}

// Writes the warnings a block held, in its turn, each site's first only.
void write_hazards(std::vector<PendingHazard>& hazards) {
  if (hazards.empty()) return;
  fflush(stdout);
  pthread_mutex_lock(&g_report_mutex);
  for (const PendingHazard& h : hazards) {
    std::pair<int, std::string> key(h.kind, h.site);
    if (std::find(g_reported.begin(), g_reported.end(), key) != g_reported.end()) continue;
    g_reported.push_back(key);
    fputs(h.text.c_str(), stderr);
  }
  pthread_mutex_unlock(&g_report_mutex);
  hazards.clear();
}

// Whether a report of `kind` at `site` is the first: not written before, nor held by
// this block. Held reports are written in their block's turn (see t_hazards); outside
// an ordinary launch one is written at once, and noted here.
bool first_report(int kind, const std::string& site) {
  std::pair<int, std::string> key(kind, site);
  pthread_mutex_lock(&g_report_mutex);
  bool seen = std::find(g_reported.begin(), g_reported.end(), key) != g_reported.end();
  if (!seen && t_hazards == nullptr) g_reported.push_back(key);
  pthread_mutex_unlock(&g_report_mutex);
  if (seen) return false;
  if (t_hazards != nullptr) {
    for (const PendingHazard& h : *t_hazards)
      if (h.kind == kind && h.site == site) return false;
  }
  return true;
}

// kind: 0 different warps, 1 a divergent warp's two paths, 2 a converged warp's
// lanes through plain memory where a compiler may keep the value in a register.
void report_hazard(int kind, const void* first, bool first_write, int first_warp,
                   int first_lane, const void* second, bool second_write, int second_warp,
                   int second_lane) {
  if (kind == 1 && !alternative_paths(first, second)) return;
  std::string a = site_text(first), b = site_text(second);
  std::pair<int, std::string> key(kind, b);
  if (!first_report(kind, b)) return;
  const char* level = settings_sanitize() ? "error" : "warning";
  std::string text;
  auto say = [&text](const char* format, auto... args) {
    int n = snprintf(nullptr, 0, format, args...);
    std::string part(static_cast<size_t>(n > 0 ? n : 0), '\0');
    snprintf(&part[0], part.size() + 1, format, args...);
    text += part;
  };
  if (kind == 2) {
    say(
            "%s: %s: lanes of warp %d communicate through plain (not volatile) shared memory "
            "with no __syncwarp(): lane %d %s at %s, lane %d %s at %s; nvcc may keep such a "
            "value in a register or move the access (the H200 did both in "
            "tests/cuda/warp_plain_shared.cu and warp_plain_scan.cu), so the GPU's answer "
            "depends on nvcc's code; the emulator runs the warp in lock step, which may "
            "differ; declare the memory volatile or put __syncwarp() between the accesses\n",
            b.c_str(), level, first_warp, first_lane, first_write ? "writes" : "reads",
            a.c_str(), second_lane, second_write ? "writes" : "reads", b.c_str());
  } else if (kind == 3) {
    say(
            "%s: %s: lanes of warp %d communicate through shared memory with no __syncwarp(): "
            "lane %d %s at %s, lane %d %s at %s; the emulator ran this block's lanes one after "
            "another (%s showed no such communication), so its order here may differ from the "
            "GPU's lock step; %s run in lock step\n",
            b.c_str(), level, first_warp, first_lane, first_write ? "writes" : "reads",
            a.c_str(), second_lane, second_write ? "writes" : "reads", b.c_str(),
            g_coop ? "the kernel's previous cooperative launch" : "the launch's first block",
            g_coop ? "the kernel's next launches" : "the launch's later blocks");
  } else if (kind == 1) {
    say(
            "%s: %s: lanes of a divergent warp communicate through shared memory: lane %d of "
            "warp %d %s at %s, lane %d %s at %s, on the other path of the branch, with no "
            "__syncwarp() between; the GPU runs the two paths in an order of the compiler's "
            "choosing, and the emulator's may differ\n",
            b.c_str(), level, first_lane, first_warp, first_write ? "writes" : "reads",
            a.c_str(), second_lane, second_write ? "writes" : "reads", b.c_str());
  } else {
    say(
            "%s: %s: threads of different warps communicate through shared memory with no "
            "barrier between: thread %d (warp %d) %s at %s, thread %d (warp %d) %s at %s; "
            "their order on a GPU is not defined, and the emulator's may differ\n",
            b.c_str(), level, first_warp * 32 + first_lane, first_warp,
            first_write ? "writes" : "reads", a.c_str(), second_warp * 32 + second_lane,
            second_warp, second_write ? "writes" : "reads", b.c_str());
  }
  if (g_launch)
    say("  in block (%u,%u,%u) of kernel %s launched at %s:%d\n", blockIdx.x,
            blockIdx.y, blockIdx.z, kernel_name(), g_launch->file, g_launch->line);
  if (t_hazards != nullptr && !settings_sanitize()) {
    t_hazards->push_back(PendingHazard{kind, b, text});
    return;
  }
  if (t_hazards != nullptr) {
    // An error: this block's turn first (the blocks before it write theirs), then now.
    kernel_error_turn();
    pthread_mutex_lock(&g_report_mutex);
    g_reported.push_back(key);
    pthread_mutex_unlock(&g_report_mutex);
  }
  fflush(stdout);
  fputs(text.c_str(), stderr);
  if (settings_sanitize()) die();
}

// A warning that is not a hazard (a warp operation that read a lane that returned),
// once for each kind and site ("FILE:LINE"), held for the block's turn like the hazards.
void report_once(int kind, const std::string& site, const std::string& text) {
  if (!first_report(kind, site)) return;
  if (t_hazards != nullptr) {
    t_hazards->push_back(PendingHazard{kind, site, text});
    return;
  }
  fflush(stdout);
  fputs(text.c_str(), stderr);
}

// Makes `area` hold `words` cells (its old cells and byte cells dropped: a new launch).
__attribute__((noinline)) void size_area(Lockstep::Area& area, size_t words) {
  delete[] area.words;
  delete[] area.bytes;
  area.bytes = nullptr;
  area.n = words;
  area.words = new ShadowWord[words];
}

// Which block of shared memory address a is in, and its offset there: the program's
// thread-local block, `tls_bytes` long below the thread pointer, where static
// __shared__ live, or the launch's `extern __shared__` buffer. Two range tests; the
// one place that knows where shared memory is (the lock-step shadow, the
// wrapped-index check and the shared window of inline PTX ask it).
enum SharedBlock { kNotShared, kStaticShared, kDynamicShared };
inline __attribute__((always_inline)) SharedBlock shared_block(uintptr_t a, size_t tls_bytes,
                                                               size_t* offset) {
  const uintptr_t lo = reinterpret_cast<uintptr_t>(__builtin_thread_pointer()) - tls_bytes;
  if (a - lo < tls_bytes) {
    *offset = a - lo;
    return kStaticShared;
  }
  const uintptr_t d = reinterpret_cast<uintptr_t>(g_dynamic_shared_ptr);
  if (g_launch && a - d < g_launch->shmem) {
    *offset = a - d;
    return kDynamicShared;
  }
  return kNotShared;
}

// Where addr's shadow is: its area and word, or false when addr is not shared memory.
// The thread-local block also holds the runtime's threadIdx and blockIdx, which
// kernels read all the time and only the runtime writes: they are not shared memory.
inline __attribute__((always_inline)) bool shadow_of(const void* addr, Lockstep::Area** area,
                                                     size_t* word) {
  Lockstep& L = B.lockstep;
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  size_t offset;
  const SharedBlock in = shared_block(a, L.tls_bytes, &offset);
  if (in == kStaticShared) {
    if (a - reinterpret_cast<uintptr_t>(&threadIdx) < sizeof threadIdx ||
        a - reinterpret_cast<uintptr_t>(&blockIdx) < sizeof blockIdx)
      return false;
    size_t i = offset >> 2;
    if (L.tls.n <= i) size_area(L.tls, L.tls_bytes / 4 + 1);
    *area = &L.tls;
    *word = i;
    return true;
  }
  if (in == kDynamicShared) {
    size_t i = offset >> 2;
    if (L.dyn.n <= i) size_area(L.dyn, g_launch->shmem / 4 + 1);
    *area = &L.dyn;
    *word = i;
    return true;
  }
  return false;
}

// The size of the program's thread-local block (where static __shared__ live).
size_t tls_block_bytes() {
  static size_t bytes = [] {
    struct Found {
      size_t size = 0;
    } found;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
          for (int i = 0; i < info->dlpi_phnum; ++i)
            if (info->dlpi_phdr[i].p_type == PT_TLS) {
              size_t align = info->dlpi_phdr[i].p_align ? info->dlpi_phdr[i].p_align : 1;
              static_cast<Found*>(data)->size =
                  (info->dlpi_phdr[i].p_memsz + align - 1) / align * align + align;
            }
          return 1;  // the program itself only
        },
        &found);
    return found.size;
  }();
  return bytes;
}

// Notes an access of lane `lane` of warp `w` (its `step`-th since the warp's last sync)
// to the shared memory whose shadow cell is `s` (the lane was just released from a
// meeting with the lanes `group`, or runs alone: then `group` is every lane of the
// warp) and reports a hazard with an earlier one. Inlined into the access path
// (memory_access): a shared-memory kernel calls it for every access, most of them reads
// that find nothing to report.
inline __attribute__((always_inline)) void note_shared_word(Warp& W, int w, int lane,
                                                            unsigned group, const void* site,
                                                            ShadowWord* s, const void* addr,
                                                            unsigned size, unsigned step,
                                                            bool write,
                                                            bool plain, bool atomic) {
  if (atomic) {
    // Atomics are ordered among themselves (no hazard between warps, nothing a compiler
    // may cache), but the two paths of a divergent warp taking them in turn give
    // results in an order the GPU's compiler chooses.
    Lockstep& L = B.lockstep;
    if (s->w_epoch == L.epoch && s->w_warp == w && s->w_lane != lane &&
        s->w_sync == W.sync_count && !(s->w_group & (1u << lane)) &&
        !(group & (1u << s->w_lane)))
      report_hazard(1, s->w_site, true, w, s->w_lane, site, true, w, lane);
    if (s->w_epoch == L.epoch && !(s->w_warp == w && s->w_lane == lane)) acquire(*s);
    note_release(s);
    s->w_plain = false;
    s->w_epoch = L.epoch;
    s->w_sync = W.sync_count;
    s->w_group = group;
    s->w_site = site;
    s->w_warp = static_cast<unsigned short>(w);
    s->w_lane = static_cast<unsigned short>(lane);
    s->w_step = 0;
    s->r_epoch = 0;
    return;
  }
  Lockstep& L = B.lockstep;
  unsigned e = L.epoch;
  unsigned bit = 1u << lane;
  unsigned sync = W.sync_count;
  // Lanes of one warp talking through this word since the warp's last sync: lock step
  // matters. Run one after another (L.meet false), the other lane's access came first
  // in time; if it came later in the lanes' step count, lock step would have put this
  // one first.
  bool other_wrote = s->w_epoch == e && s->w_warp == w && s->w_lane != lane && s->w_sync == sync;
  bool other_read = s->r_epoch == e && s->r_warp == w && s->r_lane != lane && s->r_sync == sync;
  if (other_wrote || (write && other_read)) {
    if (!L.warp_comm) {
      L.warp_comm = true;
      g_launch_warp_comm.store(true, std::memory_order_relaxed);
    }
    bool violated = !L.meet && (other_wrote ? s->w_step > step : s->r_step > step);
    if (violated) {
      g_launch_meets = true;
      report_hazard(3, other_wrote ? s->w_site : s->r_site, other_wrote, w,
                    other_wrote ? s->w_lane : s->r_lane, site, write, w, lane);
    } else if ((plain || (other_wrote ? s->w_plain : s->r_plain)) &&
               !(other_wrote ? acquired_after(w, s->w_sync, s->w_step)
                             : acquired_after(w, s->r_sync, s->r_step))) {
      report_hazard(2, other_wrote ? s->w_site : s->r_site, other_wrote, w,
                    other_wrote ? s->w_lane : s->r_lane, site, write, w, lane);
    }
  }
  // Against the last write.
  if (s->w_epoch == e && !(s->w_warp == w && s->w_lane == lane)) {
    if (s->w_warp != w) {
      // A volatile read of another warp's release (see "Release and acquire").
      const bool sees_release = !write && !plain && !s->w_plain;
      if (!acquired_after(s->w_warp, s->w_sync, s->w_step) &&
          !(sees_release && waiting_read(site, addr)) &&
          !(write && !plain && !s->w_plain && read_current(addr, size)))
        report_hazard(0, s->w_site, true, s->w_warp, s->w_lane, site, write, w, lane);
      if (sees_release) acquire(*s);
    } else {
      if (!plain && !s->w_plain && s->w_sync == sync && !(s->w_group & bit) &&
          !(group & (1u << s->w_lane)))
        report_hazard(1, s->w_site, true, s->w_warp, s->w_lane, site, write, w, lane);
      if (!write && !plain) acquire(*s);  // a lock handed on in the warp
    }
  }
  if (write) {
    // Against the reads since.
    if (s->r_epoch == e) {
      if (const unsigned others = s->r_warps & ~(1u << (w & 31))) {
        // Reads ordered before by a release this thread saw (one warp's), or polls of
        // an unset flag that this release sets.
        const bool ordered = others == 1u << (s->r_warp & 31) && s->r_warp != w &&
                             acquired_after(s->r_warp, s->r_sync, s->r_step);
        const bool sets_polled_flag = !plain && !s->r_plain && loop_condition_site(s->r_site);
        if (!ordered && !sets_polled_flag)
          report_hazard(0, s->r_site, false, s->r_warp, s->r_lane, site, true, w, lane);
      } else if (!plain && !s->r_plain && s->r_warp == w && s->r_lane != lane &&
                 s->r_sync == sync && !(s->r_group & bit) && !(group & (1u << s->r_lane))) {
        report_hazard(1, s->r_site, false, s->r_warp, s->r_lane, site, true, w, lane);
      }
    }
    s->w_plain = plain;
    s->w_step = step;
    if (plain) {
      s->w_released = false;
    } else {
      note_release(s);
    }
    s->w_epoch = e;
    s->w_sync = sync;
    s->w_group = group;
    s->w_site = site;
    s->w_warp = static_cast<unsigned short>(w);
    s->w_lane = static_cast<unsigned short>(lane);
    s->r_epoch = 0;
    s->r_warps = 0;
  } else {
    if (s->r_epoch != e) {
      s->r_epoch = e;
      s->r_warps = 0;
    }
    s->r_warps |= 1u << (w & 31);
    s->r_sync = sync;
    s->r_step = step;
    s->r_plain = plain;
    s->r_group = group;
    s->r_site = site;
    s->r_warp = static_cast<unsigned short>(w);
    s->r_lane = static_cast<unsigned short>(lane);
  }
}

// The bytes (a 4-bit mask) of the k-th 4-byte word an access of `size` bytes covers,
// when it starts at byte `first_byte` of its first word.
inline unsigned word_bytes(unsigned first_byte, unsigned size, size_t k) {
  unsigned from = k == 0 ? first_byte : 0;
  unsigned long long end = first_byte + static_cast<unsigned long long>(size) - 4 * k;
  unsigned to = end >= 4 ? 4 : static_cast<unsigned>(end);
  return ((1u << to) - 1) & ~((1u << from) - 1);
}

// An access of `size` bytes at addr, whose shadow is `word` of `area` on: each word it
// touches. A word is one cell while whole words are accessed; an access to part of one
// (a byte, a half) splits it into four byte cells, so that threads owning different
// bytes of a word (a per-thread byte histogram) are not taken to communicate. A split
// word whose byte cells are all from earlier barrier intervals is one cell again at
// its next whole-word access. (The common case, one aligned word of an unsplit cell, is
// inlined in note_shared; the rest is here.)
__attribute__((noinline)) void note_shared_parts(Warp& W, int w, int lane, unsigned group,
                                                 const void* site, Lockstep::Area& area,
                                                 size_t word, uintptr_t a, unsigned size,
                                                 unsigned step, bool write, bool plain,
                                                 bool atomic) {
  unsigned first_byte = static_cast<unsigned>(a & 3);
  size_t words = (first_byte + size + 3) >> 2;
  if (word + words > area.n) words = area.n - word;
  for (size_t k = 0; k < words; ++k) {
    ShadowWord& cell = area.words[word + k];
    unsigned mask = word_bytes(first_byte, size, k);
    if (mask == 0xf && cell.split) {
      unsigned e = B.lockstep.epoch;
      ShadowWord* b = &area.bytes[4 * (word + k)];
      bool stale = true;
      for (int i = 0; i < 4; ++i)
        if (b[i].w_epoch == e || b[i].r_epoch == e) stale = false;
      if (stale) cell = ShadowWord();
    }
    if (mask == 0xf && !cell.split) {
      note_shared_word(W, w, lane, group, site, &cell, reinterpret_cast<const void*>(a), size,
                       step, write, plain, atomic);
      continue;
    }
    if (area.bytes == nullptr) area.bytes = new ShadowWord[4 * area.n];
    ShadowWord* b = &area.bytes[4 * (word + k)];
    if (!cell.split) {
      for (int i = 0; i < 4; ++i) b[i] = cell;
      cell.split = true;
    }
    for (unsigned r = mask; r; r &= r - 1)
      note_shared_word(W, w, lane, group, site, &b[__builtin_ctz(r)],
                       reinterpret_cast<const void*>(a), size, step, write, plain, atomic);
  }
}

// ---- Lanes talking through other memory ---------------------------------------------
// Only shared memory has a shadow, so a warp whose lanes talk through global memory
// (lane 1 reads the word lane 2 writes in the same step, a program that synchronizes
// with __syncthreads and has no shared memory at all) would not keep a launch's later
// blocks meeting, and there its lanes, run one after another, would see each other's
// writes where the GPU's converged warp does not. So in a block that meets, every
// plain or volatile access outside shared memory and the thread's own stack is noted
// in a table of the block's, per 4-byte word: two lanes of one warp at one word since
// the warp's last synchronization, one of them writing, is talk, as for shared memory.
// Atomics are left out (the lanes' order decides them either way). Blocks that do not
// meet do not look: talk that only a later block makes is not seen. The table is
// direct-mapped (64Ki words, no allocation per access: an unordered_map made a
// reduction's first blocks 2.5 times slower): two words of one warp's step that
// share a cell can hide a talk there, which the next step that repeats it shows.
const size_t kOtherCells = size_t{1} << 16;
void note_other(const void* addr, unsigned size, bool write) {
  Lockstep& L = B.lockstep;
  if (L.other.empty()) L.other.resize(kOtherCells);
  const int t = g_cur->tid, w = t >> 5;
  const unsigned lane = t & 31, sync = B.warps[w].sync_count, e = L.epoch;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const unsigned first_byte = static_cast<unsigned>(a & 3);
  const size_t words = (first_byte + size + 3) >> 2;
  for (size_t k = 0; k < words; ++k) {
    const unsigned char bytes = static_cast<unsigned char>(word_bytes(first_byte, size, k));
    const uintptr_t word = (a >> 2) + k;
    Lockstep::OtherWord& o = L.other[(word * 0x9E3779B97F4A7C15ull) >> 48];
    if (o.word != word) {
      o = Lockstep::OtherWord{};
      o.word = word;
    }
    const bool other_wrote = o.w_epoch == e && o.w_sync == sync && o.w_warp == w &&
                             o.w_lane != lane && (o.w_bytes & bytes);
    const bool other_read = o.r_epoch == e && o.r_sync == sync && o.r_warp == w &&
                            (o.r_lanes & ~(1u << lane)) && (o.r_bytes & bytes);
    if (other_wrote || (write && other_read)) {
      L.warp_comm = true;
      g_launch_warp_comm.store(true, std::memory_order_relaxed);
      return;
    }
    if (write) {
      o.w_epoch = e;
      o.w_sync = sync;
      o.w_warp = static_cast<unsigned short>(w);
      o.w_lane = static_cast<unsigned short>(lane);
      o.w_bytes = bytes;
    } else if (o.r_epoch == e && o.r_sync == sync && o.r_warp == w) {
      o.r_lanes |= 1u << lane;
      o.r_bytes |= bytes;
    } else {
      o.r_epoch = e;
      o.r_sync = sync;
      o.r_warp = static_cast<unsigned short>(w);
      o.r_lanes = 1u << lane;
      o.r_bytes = bytes;
    }
  }
}

inline __attribute__((always_inline)) void note_shared(Warp& W, int w, int lane,
                                                       unsigned group, const void* site,
                                                       Lockstep::Area& area, size_t word,
                                                       const void* addr, unsigned size,
                                                       bool write, bool plain, bool atomic) {
  if (size == 0) return;
  unsigned step = atomic ? 0 : ++W.step[lane];
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  ShadowWord* cell = &area.words[word];
  // One or two aligned whole words (a float, a double), neither split.
  size_t whole = (a & 3) == 0 && (size == 4 || size == 8) ? size / 4 : 0;
  if (whole == 2 && (word + 1 >= area.n || cell[1].split)) whole = 0;
  if (whole != 0 && !cell->split) {
    for (size_t k = 0; k < whole; ++k)
      note_shared_word(W, w, lane, group, site, cell + k, addr, size, step, write, plain,
                       atomic);
    return;
  }
  note_shared_parts(W, w, lane, group, site, area, word, a, size, step, write, plain, atomic);
}
