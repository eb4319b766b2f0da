#pragma once
// The GPU mapping of the ChebFD kernels (docs/method.md section 28): one thread per element
// (item i, block column k) instead of one per item looping over k. Consecutive threads take
// consecutive k of one item, so the block vectors u, w, x (row-major, element (i, k) at i*nb + k)
// are read and written in coalesced runs and the item's matrix entries are one broadcast load;
// at nb = 1 it is a thread per row (CRS) or per SELL lane.
//
// The per-column dots are the reason this is not a Kokkos parallel_reduce: Kokkos 3.4's CUDA
// range reduction launches at most block-size blocks (256 x 256 threads, a quarter of an H200's
// resident threads) and keeps the whole value array (nb (R + 1) doubles) per thread in shared
// memory, which at nb = 32 leaves 64-thread blocks: the fused step ran at 0.06 of the triad.
// Here a thread keeps only its own column's R + 1 sums in registers (its k is fixed: the team
// is m items of nb columns and strides by whole items), a team adds its threads' sums per
// column in shared memory, and one small kernel adds the teams' sums, a team per column: a
// deterministic sum (the same launch, the same bits), not the host mapping's order.
//
// Every item's element sums its row's entries in CRS order, as the host kernels do, so w and x
// are the host mapping's (on a GPU up to nvcc's fused multiply-adds); only the dots round
// differently. The host build keeps one item per work item (chebfd_kernels.hpp); tests force this
// mapping on the host space (tests/unit/test_chebfd_elements.cpp).
#include <stdexcept>
#include <string>

#include "matrix/sell_matrix.hpp"
#include "workloads/chebfd/chebfd_kernels.hpp"
#include "workloads/chebfd/chebfd_sell_kernels.hpp"

namespace desync::chebfd {

// Which mapping a space's kernels use, chosen at compile time by its memory: host memory keeps
// the item per work item (CPU caches and SIMD want a row's nb columns in one thread).
enum class BlockMapping { item_per_thread, element_per_thread };
template <class Space>
inline constexpr BlockMapping block_mapping_for =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible ? BlockMapping::item_per_thread
                                                                                             : BlockMapping::element_per_thread;

// An element kernel is two calls: load(i, k) reads everything element (i, k) needs (the row's
// product and the element's u, w, x) into registers, store(loaded, sums) writes w and x and adds
// the element's eta_k (R slots) and mu_k to sums. The team loop loads two elements before it
// stores either: a store of w or x may alias any later load of doubles, so a compiler keeps an
// element's loads behind the previous element's stores; split, two rows' dependent chains
// (row_ptr -> col -> u) are in flight at once.
template <class T>
struct Loaded {
  T acc, u, w, x;     // the product (H u)_ik and the element's inputs (w, x not read by an init)
  std::size_t e = 0;  // the element's index in the block
  bool live = true;   // false: a SELL padding lane, nothing to store or add
  bool has = true;    // RemoteElement: whether the row has remote entries
};

// The fused step's element (i, k) on CRS (Fused's fields).
template <class T, bool Init>
struct FusedElement {
  using value_type = T;
  Fused<T, Init> f;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    const int nb = f.nb;
    Loaded<T> l;
    l.acc = T(0.0);
    for (std::size_t j = f.row_ptr(i); j < f.row_ptr(i + 1); ++j) l.acc += f.val(j) * f.u(static_cast<std::size_t>(f.col(j)) * nb + k);
    l.e = static_cast<std::size_t>(i) * nb + k;
    l.u = f.u(l.e);
    if constexpr (!Init) {
      l.w = f.w(l.e);
      l.x = f.x(f.x_off + l.e);
    }
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* s) const {
    T w = l.w, x = l.x;
    tail<T, Init>(f.s, l.acc, l.u, w, x, s, 0, 1);
    f.w(l.e) = w;
    f.x(f.x_off + l.e) = x;
  }
};

// SPLIT-WAIT's remote part and tail (RemoteTail's fields) for element (i, k).
template <class T, bool Init>
struct RemoteElement {
  using value_type = T;
  RemoteTail<T, Init> f;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    const int nb = f.nb;
    const std::size_t b = f.row_ptr(i), end = f.row_ptr(i + 1);
    Loaded<T> l;
    l.e = static_cast<std::size_t>(i) * nb + k;
    l.acc = T(0.0);
    for (std::size_t j = b; j < end; ++j) l.acc += f.val(j) * f.u(f.halo_off + static_cast<std::size_t>(f.col(j)) * nb + k);
    l.has = b != end;
    l.u = f.u(l.e);
    l.w = f.w(l.e);  // the local part's result
    if constexpr (!Init) l.x = f.x(f.x_off + l.e);
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* s) const {
    T wk = l.w, xk = l.x;
    if (l.has) wk += f.s.a * l.acc;
    if constexpr (Init) xk = f.s.gc0 * l.u + f.s.gc * wk;
    else xk += f.s.gc * wk;
    f.w(l.e) = wk;
    f.x(f.x_off + l.e) = xk;
    Traits<T>::add_dot(s, l.u, wk);
    s[Traits<T>::R] += Traits<T>::abs2(l.u);
  }
};

// The fused step on SELL-C-sigma for element (slot i, k): slot i is lane i % C of chunk i / C.
template <class T, bool Init, int C>
struct SellFusedElement {
  using value_type = T;
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w, x;
  std::size_t x_off;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    Loaded<T> l;
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    l.live = r >= 0;
    if (!l.live) return l;  // a padding lane
    const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, lane = static_cast<std::size_t>(i % C);
    l.acc = T(0.0);
    for (std::size_t j = 0; j < width; ++j) l.acc += val(o + j * C + lane) * u(static_cast<std::size_t>(col(o + j * C + lane)) * nb + k);
    l.e = static_cast<std::size_t>(r) * nb + k;
    l.u = u(l.e);
    if constexpr (!Init) {
      l.w = w(l.e);
      l.x = x(x_off + l.e);
    }
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* sum) const {
    if (!l.live) return;
    T wv = l.w, xv = l.x;
    tail<T, Init>(s, l.acc, l.u, wv, xv, sum, 0, 1);
    w(l.e) = wv;
    x(x_off + l.e) = xv;
  }
};

// SPLIT-WAIT's local part (no sums) as a flat range over elements t = i * nb + k of items
// [b0, e0): LocalPart on CRS, SellLocalPart's lanes on SELL.
template <class T, bool Init>
struct LocalElement {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t i = t / nb;
    const int k = static_cast<int>(t - i * nb);
    T acc = T(0.0);
    for (std::size_t j = row_ptr(i); j < row_ptr(i + 1); ++j) acc += val(j) * u(static_cast<std::size_t>(col(j)) * nb + k);
    const std::size_t e = static_cast<std::size_t>(t);
    if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
    else w(e) = s.a * acc + s.b * u(e) - w(e);
  }
};

template <class T, bool Init, int C>
struct SellLocalElement {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t i = t / nb;
    const int k = static_cast<int>(t - i * nb);
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    if (r < 0) return;
    const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, l = static_cast<std::size_t>(i % C);
    T acc = T(0.0);
    for (std::size_t j = 0; j < width; ++j) acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
    const std::size_t e = static_cast<std::size_t>(r) * nb + k;
    if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
    else w(e) = s.a * acc + s.b * u(e) - w(e);
  }
};

// The per-column sums of an element kernel over items [begin, end): teams of m items x nb
// columns, each team's sums to partial(team, slot), then partial's columns summed in team order.
// Slots as the host kernels': eta_k at k*R .. k*R + R - 1, mu_k at nb*R + k. The workspace is
// allocated once (set-up); a launch allocates nothing.
template <class Space>
class ColumnSums {
 public:
  ColumnSums() = default;
  // nb block columns of R sums each (R = 1 real, 2 complex) plus mu.
  ColumnSums(int nb, int R) : nb_(nb), slots_(nb * (R + 1)) {
    const int limit = Kokkos::TeamPolicy<Space>(1, 1).team_size_max(Probe{}, Kokkos::ParallelForTag());
    const bool device = block_mapping_for<Space> == BlockMapping::element_per_thread;
    const int target = device ? 256 : limit;  // 256: 8 warps, occupancy limited by registers only
    m_ = nb >= target ? 1 : target / nb;
    team_ = m_ * nb;
    if (team_ > limit)
      throw std::invalid_argument("ChebFD's element mapping: block width " + std::to_string(nb) + " needs teams of " +
                                  std::to_string(team_) + " threads, this space allows " + std::to_string(limit));
    teams_ = std::max(1, 2 * Space().concurrency() / team_);  // two waves of resident teams
    total_team_ = device ? 128 : 1;
    partial_ = Kokkos::View<double*, typename Space::memory_space>("desync::chebfd::team_sums",
                                                                   static_cast<std::size_t>(teams_) * slots_);
    total_ = Kokkos::View<double*, typename Space::memory_space>("desync::chebfd::column_sums", slots_);
  }
  int team_size() const { return team_; }

  // Like reduce_rows: begin 0 writes out, another begin adds into out through scratch.
  template <int R, class E>
  void reduce(const char* label, std::int64_t begin, std::int64_t end, const E& e, double* out, double* scratch) const {
    double* dst = begin == 0 ? out : scratch;
    const std::int64_t items = end - begin;
    const int teams = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(teams_, (items + m_ - 1) / m_)));
    const Teams<R, E> k{e, begin, end, nb_, m_, teams, slots_, partial_};
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Space>(teams, team_).set_scratch_size(0, Kokkos::PerTeam(k.scratch_bytes(team_))), k);
    Kokkos::parallel_for("desync::chebfd::column_sums", Kokkos::TeamPolicy<Space>(slots_, std::min(team_, total_team_)),
                         Total{partial_, total_, teams, slots_});
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(dst, slots_), total_);
    if (begin != 0)
      for (int s = 0; s < slots_; ++s) out[s] += scratch[s];
  }

 // The kernels' functors: public, since nvcc's generated kernel stubs name them from outside.
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Scratch = Kokkos::View<double*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  struct Probe {  // team_size_max's functor argument: what a team kernel of this space allows
    KOKKOS_INLINE_FUNCTION void operator()(const Member&) const {}
  };
  template <int R, class E>
  struct Teams {
    E e;
    std::int64_t begin, end;
    int nb, m, teams, slots;
    Kokkos::View<double*, typename Space::memory_space> partial;
    static std::size_t scratch_bytes(int team) { return Scratch::shmem_size(static_cast<std::size_t>(team) * (R + 1)); }
    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      const int t = team.team_rank(), k = t % nb, q = t / nb, size = team.team_size();
      double p[R + 1] = {};
      const std::int64_t stride = static_cast<std::int64_t>(teams) * m;
      std::int64_t i = begin + static_cast<std::int64_t>(team.league_rank()) * m + q;
      for (; i + stride < end; i += 2 * stride) {  // two elements loaded, then both stored (see Loaded)
        const Loaded<typename E::value_type> a = e.load(i, k), b = e.load(i + stride, k);
        e.store(a, p);
        e.store(b, p);
      }
      if (i < end) e.store(e.load(i, k), p);
      Scratch scr(team.team_scratch(0), static_cast<std::size_t>(size) * (R + 1));
      for (int r = 0; r <= R; ++r) scr(static_cast<std::size_t>(t) * (R + 1) + r) = p[r];
      team.team_barrier();
      for (int slot = t; slot < slots; slot += size) {  // slot r * nb + kk: sum r of column kk
        const int kk = slot % nb, r = slot / nb;
        double s = 0;
        for (int qq = 0; qq < m; ++qq) s += scr(static_cast<std::size_t>(qq * nb + kk) * (R + 1) + r);
        partial(static_cast<std::size_t>(team.league_rank()) * slots + (r < R ? kk * R + r : nb * R + kk)) = s;
      }
    }
  };
  // partial's column `slot` summed by one team (a strided pass, then the team's tree): a
  // sequential sum over 2 x 1000 teams cost 100-200 us of dependent loads per launch.
  struct Total {
    Kokkos::View<double*, typename Space::memory_space> partial, total;
    int teams, slots;
    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      const int slot = team.league_rank();
      double s = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, teams), [&](int l, double& acc) { acc += partial(static_cast<std::size_t>(l) * slots + slot); }, s);
      Kokkos::single(Kokkos::PerTeam(team), [&] { total(slot) = s; });
    }
  };
 private:
  int nb_ = 0, slots_ = 0, m_ = 1, team_ = 1, teams_ = 1, total_team_ = 1;
  Kokkos::View<double*, typename Space::memory_space> partial_, total_;
};

// The kernels with a space's mapping (M: forced by tests), used by the Filter and the benchmark.
// sums: the element mapping's workspace (unused by the item mapping).

// The fused step over rows [begin, end) of f (NON-SPLIT, PIPELINE) on CRS.
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void fused_rows(const char* label, std::int64_t begin, std::int64_t end, const Fused<T, Init>& f, const ColumnSums<Space>& sums,
                double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread)
    sums.template reduce<Traits<T>::R>(label, begin, end, FusedElement<T, Init>{f}, out, scratch);
  else
    reduce_fused<Space>(label, begin, end, f, out, scratch);
}

// The fused step over chunks [begin, end) of a on SELL-C-sigma.
template <class T, bool Init, class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>>
void fused_chunks(const char* label, std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, unsigned value_count,
                  const Values<T>& u, const Values<T>& w, const Values<T>& x, std::size_t x_off, int nb, const Step& st,
                  const ColumnSums<Space>& sums, double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread) {
    with_chunk(a.chunk, [&](auto c) {
      constexpr int C = decltype(c)::value;
      sums.template reduce<Traits<T>::R>(label, begin * C, end * C,
                                         SellFusedElement<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, x, x_off, nb, st},
                                         out, scratch);
    });
  } else {
    reduce_sell_fused<T, Init, Space>(label, begin, end, a, value_count, u, w, x, x_off, nb, st, out, scratch);
  }
}

// SPLIT-WAIT's remote part and tail over rows [begin, end).
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void remote_rows(const char* label, std::int64_t begin, std::int64_t end, const RemoteTail<T, Init>& f, const ColumnSums<Space>& sums,
                 double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread)
    sums.template reduce<Traits<T>::R>(label, begin, end, RemoteElement<T, Init>{f}, out, scratch);
  else
    reduce_rows<Space>(label, begin, end, f, out, scratch);
}

// SPLIT-WAIT's local part over rows [begin, end) on CRS.
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void local_rows(std::int64_t begin, std::int64_t end, const LocalPart<T, Init>& f) {
  if constexpr (M == BlockMapping::element_per_thread)
    Kokkos::parallel_for("desync::chebfd::local", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(begin * f.nb, end * f.nb),
                         LocalElement<T, Init>{f.row_ptr, f.col, f.val, f.u, f.w, f.nb, f.s});
  else
    Kokkos::parallel_for("desync::chebfd::local",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(static_cast<std::int32_t>(begin),
                                                                                     static_cast<std::int32_t>(end)),
                         f);
}

// SPLIT-WAIT's local part over chunks [begin, end) on SELL-C-sigma.
template <class T, bool Init, class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>>
void local_chunks(std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, const Values<T>& u, const Values<T>& w, int nb,
                  const Step& st) {
  if constexpr (M == BlockMapping::element_per_thread) {
    with_chunk(a.chunk, [&](auto c) {
      constexpr int C = decltype(c)::value;
      Kokkos::parallel_for("desync::chebfd::local_sell",
                           Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(begin * C * nb, end * C * nb),
                           SellLocalElement<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, nb, st});
    });
  } else {
    sell_local_part<T, Init>(begin, end, a, u, w, nb, st);
  }
}

}  // namespace desync::chebfd
