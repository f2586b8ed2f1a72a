// cooperative_groups.h: cooperative groups for the CPU emulation shim.
//
// Written from the CUDA programming guide's description of the API, on top of
// the shim's block barrier and lane-by-lane warp operations (cuda_runtime.h):
// a group is a set of threads and a way to meet. What is here:
//   thread_block (this_thread_block(), sync, thread_rank, size/num_threads,
//     group_index, thread_index, dim_threads, group_dim), cg::sync(g);
//   thread_block_tile<N> (N = 1..32, a power of two; tiled_partition<N> of a
//     block or of a tile): shfl, shfl_up/down/xor, any, all, ballot,
//     match_any, match_all, sync, thread_rank, size/num_threads,
//     meta_group_rank, meta_group_size; ballot and the match masks are over
//     the tile's ranks, as on the GPU;
//   thread_block_tile<N> of more than a warp (N = 64, 128, 256, 512, 1024):
//     sync (a barrier of the tile's threads only), thread_rank, size,
//     num_threads, meta_group_rank, meta_group_size, shfl (one source rank for
//     the whole tile), any, all, and cg::reduce / inclusive_scan /
//     exclusive_scan over it (reduce.h, scan.h); what nvcc 13.0 has for such
//     tiles and no more (no ballot, match_*, shfl_up/down/xor, no conversion
//     to thread_group; values of at most 8 bytes). On the GPU they meet
//     through block-scoped scratch memory; here through cuda_emu::tile_meet
//     (cuda_emu.cpp). A tile that the block does not fill is refused at its
//     first collective (the H200 hangs there: tests/cuda/cg_tile_partial.cu);
//   block_tile_memory<MaxBlockSize> and this_thread_block(block_tile_memory&)
//     (on the H200 the memory is not needed; sizeof is 8, as there);
//   thread_group, the type-erased group (a block, a tile or a coalesced group
//     assigned to it; the dynamic tiled_partition(group, n), n <= 32);
//   coalesced_threads() / coalesced_group (ranks compacted over the active
//     lanes), labeled_partition, binary_partition;
//   grid_group (this_grid(), sync under cudaLaunchCooperativeKernel: every
//     block of the grid alive at once, see cuda_emu.cpp);
//   cooperative_groups/reduce.h, scan.h and memcpy_async.h (their own files).
//   cluster_group (this_cluster(): ranks and shapes, sync, barrier_arrive /
//     barrier_wait, map_shared_rank / query_shared_rank; see "Thread block
//     clusters" in cuda_emu.cpp and cuda_runtime.h).
// What is not: the dynamic tiled_partition(group, n) with n > 32 (the H200
// fails the launch: 719), multi grid groups; the rewriter refuses those names
// with the file and line.
//
// Every collective takes the caller's file and line through
// __builtin_FILE()/__builtin_LINE() default arguments, so a divergent group
// operation is reported where the program wrote it.
#ifndef CUDA_EMU_COOPERATIVE_GROUPS_H
#define CUDA_EMU_COOPERATIVE_GROUPS_H
#pragma GCC system_header

#include <cuda_runtime.h>

namespace cuda_emu {
// grid.sync(): every thread of every block of a cooperative launch meets here.
void grid_sync(const char* file, int line);
[[noreturn]] void cg_unsupported(const char* file, int line, const char* what);
// A collective of a tile of n > 32 threads (cuda_emu.cpp, "Tiles of more than a warp").
enum TileKind : int { kTileSync = 0, kTileShfl = 1, kTileAny = 2, kTileAll = 3, kTileGather = 4 };
unsigned long long tile_meet(const char* file, int line, unsigned n, unsigned long long value,
                             long long operand, int kind);
// After a meeting: what the thread of the given rank of the caller's tile deposited.
unsigned long long tile_read(unsigned n, unsigned rank);
}  // namespace cuda_emu

namespace cooperative_groups {
namespace details {

inline unsigned linear_tid() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline unsigned lane() { return linear_tid() & 31u; }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

// A warp operation on any trivially copyable value, 8 bytes at a time.
template <class T>
inline T shuffle(const char* f, int l, int op, unsigned mask, const T& v, int operand, int width) {
  static_assert(std::is_trivially_copyable<T>::value, "cooperative groups shuffle trivially copyable values");
  T out;
  unsigned char in_bytes[sizeof(T)];
  unsigned char out_bytes[sizeof(T)];
  std::memcpy(in_bytes, &v, sizeof(T));
  for (size_t at = 0; at < sizeof(T); at += 8) {
    unsigned long long chunk = 0;
    size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
    std::memcpy(&chunk, in_bytes + at, n);
    chunk = ::cuda_emu::warp_op(f, l, op, mask, chunk, operand, width, nullptr);
    std::memcpy(out_bytes + at, &chunk, n);
  }
  std::memcpy(&out, out_bytes, sizeof(T));
  return out;
}

// The position of the k-th set bit of m (k counted from 0), or 32.
inline int nth_lane(unsigned m, unsigned k) {
  for (; m; m &= m - 1, --k)
    if (k == 0) return __builtin_ctz(m);
  return 32;
}
// Bits of `bits` at the positions of `mask`, packed down (rank order).
inline unsigned compact(unsigned bits, unsigned mask) {
  unsigned out = 0;
  int k = 0;
  for (unsigned m = mask; m; m &= m - 1, ++k)
    if ((bits >> __builtin_ctz(m)) & 1u) out |= 1u << k;
  return out;
}

enum Kind : unsigned { kBlock = 0, kTile = 1, kCoalesced = 2, kGrid = 3 };

}  // namespace details

// The type-erased group: a block, a tile (lanes `mask` of one warp, `tile`
// threads each) or a coalesced group (lanes `mask`, ranks compacted).
class thread_group {
 protected:
  unsigned kind_;
  unsigned mask_;
  unsigned tile_;
  unsigned meta_rank_;
  unsigned meta_size_;
  thread_group(unsigned kind, unsigned mask, unsigned tile, unsigned meta_rank, unsigned meta_size)
      : kind_(kind), mask_(mask), tile_(tile), meta_rank_(meta_rank), meta_size_(meta_size) {}

 public:
  unsigned long long size() const {
    switch (kind_) {
      case details::kBlock: return details::block_threads();
      case details::kTile: return tile_;
      case details::kGrid:
        return static_cast<unsigned long long>(details::block_threads()) * gridDim.x * gridDim.y *
               gridDim.z;
      default: return static_cast<unsigned>(__builtin_popcount(mask_));
    }
  }
  unsigned long long thread_rank() const {
    switch (kind_) {
      case details::kBlock: return details::linear_tid();
      case details::kGrid:
        return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y * gridDim.x +
                static_cast<unsigned long long>(blockIdx.y) * gridDim.x + blockIdx.x) *
                   details::block_threads() +
               details::linear_tid();
      default: {
        unsigned lt = (1u << details::lane()) - 1u;
        return static_cast<unsigned>(__builtin_popcount(mask_ & lt));
      }
    }
  }
  void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    switch (kind_) {
      case details::kBlock: ::cuda_emu::syncthreads(f, l, ::cuda_emu::kSync, 1); break;
      case details::kGrid: ::cuda_emu::grid_sync(f, l); break;
      default: ::cuda_emu::warp_op(f, l, ::cuda_emu::kSyncwarp, mask_, 0, 0, 32, nullptr); break;
    }
  }
  // For the emulator's own use: the lanes of a warp-level group.
  unsigned cuda_emu_mask() const { return mask_; }
  unsigned cuda_emu_kind() const { return kind_; }
  unsigned cuda_emu_tile() const { return tile_; }
};

class thread_block : public thread_group {
  friend thread_block this_thread_block();
  thread_block() : thread_group(details::kBlock, 0, 0, 0, 1) {}

 public:
  void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    ::cuda_emu::syncthreads(f, l, ::cuda_emu::kSync, 1);
  }
  unsigned thread_rank() const { return details::linear_tid(); }
  unsigned size() const { return details::block_threads(); }
  unsigned num_threads() const { return details::block_threads(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 dim_threads() const { return blockDim; }
  dim3 group_dim() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

// Scratch memory for tiles of more than a warp, needed on GPUs before compute
// capability 8.0; on the H200 (and here) nothing uses it. sizeof is the H200's
// (8, host code of tests/cuda/cg_block_tile_memory.cu).
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  alignas(8) unsigned char cuda_emu_reserved[8];
};
template <unsigned MaxBlockSize>
inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&,
                                      const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  if (details::block_threads() > MaxBlockSize)
    ::cuda_emu::cg_unsupported(
        f, l, "this_thread_block(block_tile_memory<MaxBlockSize>&) in a block of more than MaxBlockSize threads");
  return this_thread_block();
}

// Lanes `mask_` of a warp, ranks compacted: the base of tiles and coalesced groups.
class coalesced_group : public thread_group {
 protected:
  coalesced_group(unsigned kind, unsigned mask, unsigned tile, unsigned meta_rank,
                  unsigned meta_size)
      : thread_group(kind, mask, tile, meta_rank, meta_size) {}

 public:
  explicit coalesced_group(unsigned mask) : thread_group(details::kCoalesced, mask, 0, 0, 1) {}
  unsigned thread_rank() const { return static_cast<unsigned>(thread_group::thread_rank()); }
  unsigned size() const { return static_cast<unsigned>(thread_group::size()); }
  unsigned num_threads() const { return size(); }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    ::cuda_emu::warp_op(f, l, ::cuda_emu::kSyncwarp, mask_, 0, 0, 32, nullptr);
  }
  template <class T>
  T shfl(T var, unsigned src_rank, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    int src = details::nth_lane(mask_, src_rank % size());
    return details::shuffle(f, l, ::cuda_emu::kShflIdx, mask_, var, src, 32);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    unsigned r = thread_rank() + delta;
    int src = r < size() ? details::nth_lane(mask_, r) : static_cast<int>(details::lane());
    return details::shuffle(f, l, ::cuda_emu::kShflIdx, mask_, var, src, 32);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    unsigned r = thread_rank();
    int src = r >= delta ? details::nth_lane(mask_, r - delta) : static_cast<int>(details::lane());
    return details::shuffle(f, l, ::cuda_emu::kShflIdx, mask_, var, src, 32);
  }
  int any(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return static_cast<int>(::cuda_emu::warp_op(f, l, ::cuda_emu::kAny, mask_, p ? 1 : 0, 0, 32, nullptr));
  }
  int all(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return static_cast<int>(::cuda_emu::warp_op(f, l, ::cuda_emu::kAll, mask_, p ? 1 : 0, 0, 32, nullptr));
  }
  unsigned ballot(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    unsigned b = static_cast<unsigned>(
        ::cuda_emu::warp_op(f, l, ::cuda_emu::kBallot, mask_, p ? 1 : 0, 0, 32, nullptr));
    return details::compact(b, mask_);
  }
  template <class T>
  unsigned match_any(T v, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    unsigned m = static_cast<unsigned>(::cuda_emu::warp_op(f, l, ::cuda_emu::kMatchAny, mask_,
                                                           ::cuda_emu::to_bits(v), 0, 32, nullptr));
    return details::compact(m, mask_);
  }
  template <class T>
  unsigned match_all(T v, int& pred, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    unsigned m = static_cast<unsigned>(::cuda_emu::warp_op(f, l, ::cuda_emu::kMatchAll, mask_,
                                                           ::cuda_emu::to_bits(v), 0, 32, &pred));
    return details::compact(m, mask_);
  }
};

// The active lanes of the warp, where the call is made (see __activemask in
// cuda_emu.cpp: lanes that wait at another call site are another group).
inline coalesced_group coalesced_threads(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return coalesced_group(::cuda_emu::activemask(f, l));
}

template <unsigned N, class Parent = void>
class thread_block_tile;

// A tile of N threads (a power of two up to 32) within one warp.
template <unsigned N>
class cuda_emu_warp_tile : public coalesced_group {
  template <unsigned, class>
  friend class thread_block_tile;

 protected:
  static unsigned tile_mask() {
    unsigned base = details::lane() & ~(N - 1);
    return N == 32 ? 0xffffffffu : ((1u << N) - 1u) << base;
  }

 public:
  cuda_emu_warp_tile(unsigned meta_rank, unsigned meta_size)
      : coalesced_group(details::kTile, tile_mask(), N, meta_rank, meta_size) {}
  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  unsigned thread_rank() const { return details::lane() & (N - 1); }
  // In a tile that runs past the end of the block the missing threads count as
  // false: the H200 gave all(1) == 0 there (tests/cuda/cg_tiles.cu, 48 threads).
  int all(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    int r = coalesced_group::all(p, f, l);
    unsigned first = details::linear_tid() - thread_rank();
    return first + N > details::block_threads() ? 0 : r;
  }
  template <class T>
  T shfl(T var, int src, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return details::shuffle(f, l, ::cuda_emu::kShflIdx, mask_, var, src, N);
  }
  template <class T>
  T shfl_up(T var, unsigned d, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return details::shuffle(f, l, ::cuda_emu::kShflUp, mask_, var, static_cast<int>(d), N);
  }
  template <class T>
  T shfl_down(T var, unsigned d, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return details::shuffle(f, l, ::cuda_emu::kShflDown, mask_, var, static_cast<int>(d), N);
  }
  template <class T>
  T shfl_xor(T var, unsigned m, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return details::shuffle(f, l, ::cuda_emu::kShflXor, mask_, var, static_cast<int>(m), N);
  }
};

// A tile of N threads (64, 128, 256, 512 or 1024): whole warps, N / 32 of them. Only
// what nvcc 13.0 offers for such tiles (its compile errors name the rest).
template <unsigned N>
class cuda_emu_multi_warp_tile {
  unsigned meta_rank_;
  unsigned meta_size_;

 public:
  cuda_emu_multi_warp_tile(unsigned meta_rank, unsigned meta_size)
      : meta_rank_(meta_rank), meta_size_(meta_size) {}
  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  unsigned thread_rank() const { return details::linear_tid() & (N - 1); }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    ::cuda_emu::tile_meet(f, l, N, 0, 0, ::cuda_emu::kTileSync);
  }
  // Every thread of the tile must name the same source rank (checked).
  template <class T>
  T shfl(T var, unsigned src_rank, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "collectives of tiles of more than 32 threads take trivially copyable values "
                  "of at most 8 bytes (as nvcc's)");
    unsigned long long bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = ::cuda_emu::tile_meet(f, l, N, bits, static_cast<long long>(src_rank), ::cuda_emu::kTileShfl);
    std::memcpy(&var, &bits, sizeof(T));
    return var;
  }
  int any(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return static_cast<int>(::cuda_emu::tile_meet(f, l, N, p != 0, 0, ::cuda_emu::kTileAny));
  }
  int all(int p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    return static_cast<int>(::cuda_emu::tile_meet(f, l, N, p != 0, 0, ::cuda_emu::kTileAll));
  }
};

template <unsigned N>
class thread_block_tile<N, void>
    : public std::conditional<(N <= 32), cuda_emu_warp_tile<N>, cuda_emu_multi_warp_tile<N>>::type {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0,
                "thread_block_tile<N>: N must be 1, 2, 4, ..., 512 or 1024");
  using Base =
      typename std::conditional<(N <= 32), cuda_emu_warp_tile<N>, cuda_emu_multi_warp_tile<N>>::type;

 public:
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : Base(meta_rank, meta_size) {}
};

template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
 public:
  thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

template <unsigned N>
inline thread_block_tile<N, thread_block> tiled_partition(const thread_block&) {
  unsigned threads = details::block_threads();
  return thread_block_tile<N, thread_block>(details::linear_tid() / N, (threads + N - 1) / N);
}
template <unsigned N, unsigned M, class P>
inline thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>& parent) {
  static_assert(N <= M, "a tile's tiles must be smaller than the tile");
  return thread_block_tile<N, thread_block_tile<M, P>>(parent.thread_rank() / N, M / N);
}

// A subgroup of a warp-level group: the lanes of `parent` in `sub`.
class cuda_emu_partition : public coalesced_group {
 public:
  cuda_emu_partition(unsigned kind, unsigned mask, unsigned tile, unsigned meta_rank, unsigned meta_size)
      : coalesced_group(kind, mask, tile, meta_rank, meta_size) {}
};

// The dynamic tiled_partition: tiles of n threads (a power of two, at most 32).
inline thread_group tiled_partition(const thread_group& parent, unsigned n,
                                    const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  if (n == 0 || n > 32 || (n & (n - 1)) != 0)
    ::cuda_emu::cg_unsupported(f, l, "tiled_partition(group, n) with n not a power of two up to 32");
  unsigned rank = static_cast<unsigned>(parent.thread_rank());
  unsigned psize = static_cast<unsigned>(parent.size());
  if (parent.cuda_emu_kind() == details::kBlock || parent.cuda_emu_kind() == details::kTile) {
    if (parent.cuda_emu_kind() == details::kTile && n > parent.cuda_emu_tile())
      ::cuda_emu::cg_unsupported(f, l, "tiled_partition(tile, n) with n larger than the tile");
    unsigned base = details::lane() & ~(n - 1);
    unsigned mask = n == 32 ? 0xffffffffu : ((1u << n) - 1u) << base;
    return cuda_emu_partition(details::kTile, mask, n, rank / n, (psize + n - 1) / n);
  }
  if (parent.cuda_emu_kind() == details::kCoalesced) {
    // Ranks rank / n * n ... of the parent, by rank.
    unsigned first = rank / n * n, mask = 0, k = 0;
    for (unsigned m = parent.cuda_emu_mask(); m; m &= m - 1, ++k)
      if (k >= first && k < first + n) mask |= 1u << __builtin_ctz(m);
    return cuda_emu_partition(details::kCoalesced, mask, 0, rank / n, (psize + n - 1) / n);
  }
  ::cuda_emu::cg_unsupported(f, l, "tiled_partition of a grid group");
}

template <class T>
inline coalesced_group labeled_partition(const coalesced_group& g, T label,
                                         const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  unsigned m = static_cast<unsigned>(::cuda_emu::warp_op(f, l, ::cuda_emu::kMatchAny, g.cuda_emu_mask(),
                                                         ::cuda_emu::to_bits(label), 0, 32, nullptr));
  return coalesced_group(m);
}
inline coalesced_group binary_partition(const coalesced_group& g, bool pred,
                                        const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return labeled_partition(g, static_cast<int>(pred), f, l);
}

class grid_group : public thread_group {
  friend grid_group this_grid();
  grid_group() : thread_group(details::kGrid, 0, 0, 0, 1) {}

 public:
  void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) const {
    ::cuda_emu::grid_sync(f, l);
  }
  // The H200 answered 1 in an ordinary launch too (tests/cuda/cg_grid_sync.cu).
  bool is_valid() const { return true; }
  unsigned long long num_threads() const { return thread_group::size(); }
  unsigned long long size() const { return thread_group::size(); }
  unsigned long long thread_rank() const { return thread_group::thread_rank(); }
  unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  unsigned long long block_rank() const {
    return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
           blockIdx.x;
  }
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 group_dim() const { return gridDim; }
};

inline grid_group this_grid() { return grid_group(); }

// ---- Thread block clusters ------------------------------------------------------
// The blocks of one cluster (a launch without clusters: the block alone), on the
// cluster intrinsics of cuda_runtime.h. Ranks run x fastest; thread_index and
// dim_threads count threads across the cluster's blocks (tests/cuda/cluster_basic.cu).
class cluster_group {
  friend cluster_group this_cluster();
  cluster_group() {}

 public:
  struct arrival_token {};
  static void sync(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    ::cuda_emu::cluster_arrive(f, l);
    ::cuda_emu::cluster_wait(f, l);
  }
  static arrival_token barrier_arrive(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    ::cuda_emu::cluster_arrive(f, l);
    return arrival_token();
  }
  static void barrier_wait(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    ::cuda_emu::cluster_wait(f, l);
  }
  static void barrier_wait(arrival_token&&, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    ::cuda_emu::cluster_wait(f, l);
  }
  static unsigned block_rank() { return __clusterRelativeBlockRank(); }
  static unsigned num_blocks() { return __clusterSizeInBlocks(); }
  static dim3 dim_blocks() { return __clusterDim(); }
  static dim3 block_index() { return __clusterRelativeBlockIdx(); }
  static unsigned num_threads() { return num_blocks() * details::block_threads(); }
  static unsigned size() { return num_threads(); }
  static unsigned thread_rank() { return block_rank() * details::block_threads() + details::linear_tid(); }
  static dim3 thread_index() {
    dim3 b = block_index();
    return dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y,
                b.z * blockDim.z + threadIdx.z);
  }
  static dim3 dim_threads() {
    dim3 c = dim_blocks();
    return dim3(c.x * blockDim.x, c.y * blockDim.y, c.z * blockDim.z);
  }
  template <class T>
  static T* map_shared_rank(T* p, int rank, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    return static_cast<T*>(::cuda_emu::cluster_map_shared(p, static_cast<unsigned>(rank), f, l));
  }
  static unsigned query_shared_rank(const void* p, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
    return ::cuda_emu::cluster_query_shared(p, f, l);
  }
};

inline cluster_group this_cluster() { return cluster_group(); }

template <class G>
inline void sync(const G& g, const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  g.sync(f, l);
}

}  // namespace cooperative_groups

#endif  // CUDA_EMU_COOPERATIVE_GROUPS_H
