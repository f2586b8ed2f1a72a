// cooperative_groups/memcpy_async.h: cg::memcpy_async, cg::wait and cg::wait_prior for
// the CPU emulation shim. The copy is made at once by the group's rank 0 (the source
// must not change before the wait, as on the GPU); wait is the group's barrier, after
// which every thread of the group sees the data, as the programming guide promises.
#ifndef CUDA_EMU_CG_MEMCPY_ASYNC_H
#define CUDA_EMU_CG_MEMCPY_ASYNC_H
#pragma GCC system_header

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class G>
inline void memcpy_async(const G& g, void* dst, const void* src, size_t bytes) {
  if (g.thread_rank() == 0) std::memmove(dst, src, bytes);
}
template <class G, class T>
inline void memcpy_async(const G& g, T* dst, size_t dst_count, const T* src, size_t src_count) {
  size_t n = dst_count < src_count ? dst_count : src_count;
  if (g.thread_rank() == 0) std::memmove(static_cast<void*>(dst), static_cast<const void*>(src), n * sizeof(T));
}
template <class G>
inline void wait(const G& g, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  g.sync(f, l);
}
template <unsigned N, class G>
inline void wait_prior(const G& g, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  g.sync(f, l);
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_CG_MEMCPY_ASYNC_H
