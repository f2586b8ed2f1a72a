// cuda_emu_sanitize.h: the interface between the runtime (cuda_emu.cpp) and the CPU
// sanitizers (cuda_emu_sanitize.cpp), for `mdbook-evidence run --sanitize`.
//
// Why a separate file: the shadow state and the reports are large and only matter
// when a program runs sanitized; the runtime calls these hooks at the few places
// that matter (allocations, copies, launches, blocks, barriers, __syncwarp, API
// errors, exit) and the thread-sanitizer entry points call `access` for every
// memory access of an instrumented (sanitize) build. Internal to the shim: programs
// never include it.
#ifndef CUDA_EMU_SANITIZE_H
#define CUDA_EMU_SANITIZE_H

#include <cstddef>
#include <cstdint>

#include "cuda_runtime.h"

namespace cuda_emu {
namespace san {

// Which checks run (CUDA_EMU_SANITIZE=memcheck,racecheck,synccheck,initcheck).
extern bool g_on;  // any of them
extern bool g_memcheck, g_racecheck, g_synccheck, g_initcheck;
// The thread order inside a block (CUDA_EMU_SCHEDULE): 0 in order, 1 reverse, 2 random.
extern int g_schedule;
extern unsigned long long g_schedule_seed;

// Reads the CUDA_EMU_SANITIZE* and CUDA_EMU_SCHEDULE variables; called once at start.
void init();

// ---- Device memory: an arena laid out as the GPU lays out cudaMalloc (every block a
// multiple of 512 bytes, one after another, from a 2 MiB boundary), so that an access
// past a buffer lands in device memory, not in the host's heap, and memcheck can say how
// far it is from the nearest allocation in the GPU's words.
void* arena_alloc(size_t size);
bool arena_owns(const void* p);
void arena_free(void* p, size_t size);

// ---- Hooks from the runtime.
void on_alloc(void* p, size_t size);  // a device or managed allocation, read as never written
void on_free(void* p);
void on_init(const void* p, size_t n);          // cudaMemcpy/cudaMemset wrote [p, p+n)
// dynamic_shared/dynamic_bytes: the launch's `extern __shared__` memory, inside the
// buffer [buffer_lo, buffer_hi) that holds it (0, 0 when unknown). A cooperative launch
// keeps several blocks alive at once: racecheck does not check it (and says so).
void on_launch(const char* kernel, const char* file, int line, bool cooperative,
               void* dynamic_shared, size_t dynamic_bytes, const void* buffer_lo,
               const void* buffer_hi);
void on_block();                 // a block starts: shared memory is fresh
void on_barrier();               // a __syncthreads completed
void on_syncwarp(int warp);      // a __syncwarp of `warp` completed
// An error in this block that stops the kernel: 719 after a memcheck error, 700 after an
// access outside the block's shared memory without memcheck (the GPU's hardware faults);
// cudaSuccess when none.
cudaError_t block_error();
void on_launch_end();
void on_api_error(cudaError_t e);  // an API call returns e (memcheck: "Program hit ...")
// synccheck: the lanes `lanes` of warp `warp` met an invalid __syncwarp mask at file:line.
void sync_error(const char* file, int line, int warp, unsigned lanes);
// A memory fault inside a kernel at address a, instruction pc: the access's line, or "".
void fault_line(const void* pc, char* out, size_t n);
// memcheck: a memory fault at address a, instruction pc, within reach of the faulting
// thread's stack: an invalid __local__ access of `size` bytes (0: unknown), counted.
void local_fault(bool write, unsigned size, const void* pc, uintptr_t a);
// The summaries (and leak check); exits with --error-exitcode when errors were found.
void finish();

// ---- Every instrumented access (cuda_emu.cpp's __tsan_* entry points). `aligned`: the
// compiler knows the access is naturally aligned (its type says so; not the unaligned_
// and range entry points), so an address that is not is memcheck's misaligned access.
void access(const void* addr, unsigned size, bool write, const void* pc, bool aligned = false);

}  // namespace san
}  // namespace cuda_emu

#endif
