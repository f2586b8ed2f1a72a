// cooperative_groups/reduce.h: cg::reduce and its operators, for the CPU emulation shim.
//
// The order of the combining steps is the H200's, read off an operator that is neither
// associative nor commutative (tests/cuda/cg_reduce_scan.cu): on a tile of N threads a
// butterfly, each thread combining its value with the one of rank ^ 16, 8, 4, 2, 1
// (its own value first); on a coalesced group an inclusive scan (see scan.h) whose last
// rank's value is given to every thread. So float sums come out bit for bit as there.
// On a tile of more than a warp (tests/cuda/cg_tile_reduce.cu, Left/Right operators and
// float sums over tiles of 64 ... 1024): each warp reduces as a 32-thread tile does, and the
// warp's value is lane 16's; those of the N / 32 warps are then combined the same way, a
// butterfly over warp indices (N / 64, ..., 2, 1, the warp's own value first), every thread
// of a warp getting its warp's result.
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
// Tiles of more than a warp.
template <class G>
struct is_multi_warp : std::false_type {};
template <unsigned N, class P>
struct is_multi_warp<thread_block_tile<N, P>> : std::integral_constant<bool, (N > 32)> {};

template <class T>
inline void check_multi_warp_value() {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "collectives of tiles of more than 32 threads take trivially copyable values of "
                "at most 8 bytes (as nvcc's)");
}
template <class T>
inline unsigned long long to_bits(const T& v) {
  unsigned long long b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
// `like` gives a T to copy into (T need not be default-constructible).
template <class T>
inline T from_bits(unsigned long long b, const T& like) {
  T v = like;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// The value each warp of a tile of N threads ends with: deposited, one per warp, and read
// back by every thread after the tile's meeting (cuda_emu::tile_meet).
template <unsigned N, class T>
inline void gather_warp_values(T mine, T* out, const char* f, int l) {
  ::cuda_emu::tile_meet(f, l, N, to_bits(mine), 0, ::cuda_emu::kTileGather);
  for (unsigned w = 0; w < N / 32; ++w) {
    unsigned long long b = ::cuda_emu::tile_read(N, w * 32);
    std::memcpy(&out[w], &b, sizeof(T));
  }
}

template <unsigned N, class T, class Op>
inline T reduce_multi_warp(T v, Op op, const char* f, int l) {
  check_multi_warp_value<T>();
  thread_block_tile<32> warp(0, 1);
  for (unsigned o = 16; o > 0; o /= 2) v = op(v, warp.shfl_xor(v, o, f, l));
  v = warp.shfl(v, 16, f, l);
  constexpr unsigned nw = N / 32;
  alignas(T) unsigned char raw[2][nw * sizeof(T)];
  T* cur = reinterpret_cast<T*>(raw[0]);
  T* next = reinterpret_cast<T*>(raw[1]);
  gather_warp_values<N>(v, cur, f, l);
  for (unsigned m = nw / 2; m > 0; m /= 2) {
    for (unsigned i = 0; i < nw; ++i) {
      T x = op(cur[i], cur[i ^ m]);
      std::memcpy(&next[i], &x, sizeof(T));
    }
    T* t = cur;
    cur = next;
    next = t;
  }
  return from_bits(to_bits(cur[details::linear_tid() % N / 32]), v);
}
}  // namespace details

template <class G, class T, class Op>
inline T reduce(const G& g, T v, Op op, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  static_assert(std::is_base_of<coalesced_group, G>::value || details::is_multi_warp<G>::value,
                "cg::reduce: the CPU emulator reduces over tiles and coalesced groups");
  if constexpr (details::is_multi_warp<G>::value) {
    return details::reduce_multi_warp<G::num_threads()>(v, op, f, l);
  } else if constexpr (details::is_tile<G>::value) {
    for (unsigned o = g.size() / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o, f, l));
    return v;
  } else {
    T s = details::scan_inclusive(g, v, op, f, l);
    return g.shfl(s, g.size() - 1, f, l);
  }
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_CG_REDUCE_H
