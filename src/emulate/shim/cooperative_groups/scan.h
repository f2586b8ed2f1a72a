// cooperative_groups/scan.h: cg::inclusive_scan and cg::exclusive_scan, for the CPU
// emulation shim. The steps are the H200's (tests/cuda/cg_reduce_scan.cu): Hillis and
// Steele over the group's ranks, a thread's own value first in each combination; the
// exclusive scan is the inclusive one moved up a rank, rank 0 getting T().
// On a tile of more than a warp (tests/cuda/cg_tile_scan.cu): each warp scans as a
// 32-thread tile does; the warps' totals (lane 31's) are scanned the same way, and a thread
// of warp w > 0 combines its own value with the totals' inclusive scan at w - 1 (P), its
// own first. Exclusive: lane 0 of warp w > 0 gets P itself; other lanes combine the
// warp-level exclusive value with P; warp 0 is the warp-level exclusive scan.
#ifndef CUDA_EMU_CG_SCAN_H
#define CUDA_EMU_CG_SCAN_H
#pragma GCC system_header

#include <cooperative_groups/reduce.h>

namespace cooperative_groups {
namespace details {
template <unsigned N, class T, class Op>
inline T scan_multi_warp(T v, Op op, bool exclusive, const char* f, int l) {
  check_multi_warp_value<T>();
  thread_block_tile<32> warp(0, 1);
  T s = scan_inclusive(warp, v, op, f, l);
  T e = warp.shfl_up(s, 1, f, l);
  T total = warp.shfl(s, 31, f, l);
  constexpr unsigned nw = N / 32;
  alignas(T) unsigned char raw[2][nw * sizeof(T)];
  T* cur = reinterpret_cast<T*>(raw[0]);
  T* next = reinterpret_cast<T*>(raw[1]);
  gather_warp_values<N>(total, cur, f, l);
  unsigned w = linear_tid() % N / 32, lane_ = lane();
  // The totals' inclusive scan (Hillis and Steele, own value first), up to index w - 1.
  for (unsigned o = 1; o < w; o *= 2) {
    for (unsigned i = 0; i < w; ++i) {
      if (i >= o) {
        T x = op(cur[i], cur[i - o]);
        std::memcpy(&next[i], &x, sizeof(T));
      } else {
        std::memcpy(&next[i], &cur[i], sizeof(T));
      }
    }
    T* t = cur;
    cur = next;
    next = t;
  }
  if (!exclusive) return w == 0 ? s : op(s, from_bits(to_bits(cur[w - 1]), v));
  if (w == 0) return lane_ == 0 ? T() : e;
  T p = from_bits(to_bits(cur[w - 1]), v);
  return lane_ == 0 ? p : op(e, p);
}
}  // namespace details

template <class G, class T, class Op>
inline T inclusive_scan(const G& g, T v, Op op, const char* f = __builtin_FILE(),
                        int l = __builtin_LINE()) {
  static_assert(std::is_base_of<coalesced_group, G>::value || details::is_multi_warp<G>::value,
                "cg scans: the CPU emulator scans over tiles and coalesced groups");
  if constexpr (details::is_multi_warp<G>::value)
    return details::scan_multi_warp<G::num_threads()>(v, op, false, f, l);
  else
    return details::scan_inclusive(g, v, op, f, l);
}
template <class G, class T>
inline T inclusive_scan(const G& g, T v, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return inclusive_scan(g, v, plus<T>(), f, l);
}
template <class G, class T, class Op>
inline T exclusive_scan(const G& g, T v, Op op, const char* f = __builtin_FILE(),
                        int l = __builtin_LINE()) {
  if constexpr (details::is_multi_warp<G>::value) {
    return details::scan_multi_warp<G::num_threads()>(v, op, true, f, l);
  } else {
    T s = inclusive_scan(g, v, op, f, l);
    T up = g.shfl_up(s, 1, f, l);
    return g.thread_rank() == 0 ? T() : up;
  }
}
template <class G, class T>
inline T exclusive_scan(const G& g, T v, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return exclusive_scan(g, v, plus<T>(), f, l);
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_CG_SCAN_H
