// cooperative_groups/scan.h: cg::inclusive_scan and cg::exclusive_scan, for the CPU
// emulation shim. The steps are the H200's (tests/cuda/cg_reduce_scan.cu): Hillis and
// Steele over the group's ranks, a thread's own value first in each combination; the
// exclusive scan is the inclusive one moved up a rank, rank 0 getting T().
#ifndef CUDA_EMU_CG_SCAN_H
#define CUDA_EMU_CG_SCAN_H
#pragma GCC system_header

#include <cooperative_groups/reduce.h>

namespace cooperative_groups {

template <class G, class T, class Op>
inline T inclusive_scan(const G& g, T v, Op op, const char* f = __builtin_FILE(),
                        int l = __builtin_LINE()) {
  static_assert(std::is_base_of<coalesced_group, G>::value,
                "cg scans: the CPU emulator scans over tiles and coalesced groups");
  return details::scan_inclusive(g, v, op, f, l);
}
template <class G, class T>
inline T inclusive_scan(const G& g, T v, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return inclusive_scan(g, v, plus<T>(), f, l);
}
template <class G, class T, class Op>
inline T exclusive_scan(const G& g, T v, Op op, const char* f = __builtin_FILE(),
                        int l = __builtin_LINE()) {
  T s = inclusive_scan(g, v, op, f, l);
  T up = g.shfl_up(s, 1, f, l);
  return g.thread_rank() == 0 ? T() : up;
}
template <class G, class T>
inline T exclusive_scan(const G& g, T v, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return exclusive_scan(g, v, plus<T>(), f, l);
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_CG_SCAN_H
