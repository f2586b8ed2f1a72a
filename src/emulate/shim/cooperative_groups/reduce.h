// cooperative_groups/reduce.h: cg::reduce and its operators, for the CPU emulation shim.
//
// The order of the combining steps is the H200's, read off an operator that is neither
// associative nor commutative (tests/cuda/cg_reduce_scan.cu): on a tile of N threads a
// butterfly, each thread combining its value with the one of rank ^ 16, 8, 4, 2, 1
// (its own value first); on a coalesced group an inclusive scan (see scan.h) whose last
// rank's value is given to every thread. So float sums come out bit for bit as there.
#ifndef CUDA_EMU_CG_REDUCE_H
#define CUDA_EMU_CG_REDUCE_H
#pragma GCC system_header

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class T = void>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T = void>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T = void>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T = void>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T = void>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T = void>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace details {
// Inclusive scan over the ranks of a warp-level group (Hillis and Steele: at step o a
// thread of rank r >= o combines its value with rank r - o's, its own first).
template <class G, class T, class Op>
inline T scan_inclusive(const G& g, T v, Op op, const char* f, int l) {
  unsigned r = g.thread_rank(), n = g.size();
  for (unsigned o = 1; o < n; o *= 2) {
    T x = g.shfl_up(v, o, f, l);
    if (r >= o) v = op(v, x);
  }
  return v;
}
template <class G>
struct is_tile : std::false_type {};
template <unsigned N, class P>
struct is_tile<thread_block_tile<N, P>> : std::true_type {};
}  // namespace details

template <class G, class T, class Op>
inline T reduce(const G& g, T v, Op op, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  static_assert(std::is_base_of<coalesced_group, G>::value,
                "cg::reduce: the CPU emulator reduces over tiles and coalesced groups");
  if constexpr (details::is_tile<G>::value) {
    for (unsigned o = g.size() / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o, f, l));
    return v;
  }
  T s = details::scan_inclusive(g, v, op, f, l);
  return g.shfl(s, g.size() - 1, f, l);
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_CG_REDUCE_H
