#pragma once
// The column sums of ChebFD's element kernels on a device (chebfd_element_kernels.hpp; docs/method.md
// section 28): teams of m rows x nb columns, a thread per element with its own column's R + 1
// sums in registers, a team's sums added in shared memory, the teams' sums by a team per column.
// Not a Kokkos parallel_reduce: Kokkos 3.4's CUDA range reduction launches at most block-size
// blocks (256 x 256 threads, a quarter of an H200's resident threads) and keeps the whole value
// array (nb (R + 1) doubles) per thread in shared memory, which at nb = 32 leaves 64-thread
// blocks: the fused step ran at 0.06 of the triad. The sum is deterministic (the same launch,
// the same bits) but not the host mapping's order. The sums stay in the space's memory: the
// filter copies all of them to the host once, after its loops (a copy to pageable host memory
// per launch cost a synchronous transfer each).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kokkos_compat/staging_space.hpp"

namespace desync::chebfd {

// Which mapping a space's kernels use, chosen at compile time by its memory: host memory keeps
// the item per work item (CPU caches and SIMD want a row's nb columns in one thread).
enum class BlockMapping { item_per_thread, element_per_thread };
template <class Space>
inline constexpr BlockMapping block_mapping_for =
    compat::host_accessible<Space> ? BlockMapping::item_per_thread : BlockMapping::element_per_thread;

// Where a mapping's kernels leave the sums (the `out` of every kernel below): the item mapping's
// Kokkos reduction returns them to host memory, the element mapping's kernels write the space's.
template <class Space, BlockMapping M>
using SumsMemory = std::conditional_t<M == BlockMapping::element_per_thread, typename Space::memory_space, Kokkos::HostSpace>;

// An element kernel is two calls: load(i, k) reads everything element (i, k) needs (the row's
// product and the element's u, w, x) into registers, store(loaded, sums) writes w and x and adds
// the element's eta_k (R slots) and mu_k to sums. The team loop loads Depth elements (two in the
// workload) before it stores any: a store of w or x may alias any later load of doubles, so a
// compiler keeps an element's loads behind the previous element's stores; split, Depth rows'
// dependent chains (row_ptr -> col -> u) are in flight at once.
template <class T>
struct Loaded {
  T acc, u, w, x;     // the product (H u)_ik and the element's inputs (w, x not read by an init)
  std::size_t e = 0;  // the element's index in the block
  bool live = true;   // false: a SELL padding lane, nothing to store or add
  bool has = true;    // RemoteElement: whether the row has remote entries
};

// The launch shape of the element kernels, chosen once, at set-up (the workload takes the
// defaults; bench_chebfd --launch-sweep measures others side by side, docs/method.md section 28).
struct ElementLaunch {
  int team_threads = 0;  // threads a team aims at (m = team_threads / nb rows); 0: the space's default
  int waves = 2;         // teams = waves x the space's concurrency / team size: resident teams per launch
};

// The per-column sums of an element kernel over items [begin, end): teams of m items x nb
// columns, each team's sums to partial(team, slot), then partial's columns summed in team order.
// Slots as the host kernels': eta_k at k*R .. k*R + R - 1, mu_k at nb*R + k. The workspace is
// allocated once (set-up); a launch allocates nothing.
// Depth: rows a thread loads before it stores any (see Loaded); Columns: neighbouring block
// columns a thread takes of each row (nb / Columns threads per row), whose loads share the row's
// index chain. Compile-time constants, so the loaded elements stay in registers. With the same
// rows per team, every Depth and Columns gives the same bits (each column's sum adds the same
// rows in the same order); the workload uses Depth 2, Columns 1, bench_chebfd measures others.
template <class Space, int Depth = 2, int Columns = 1>
class ColumnSums {
  static_assert(Depth >= 1 && Depth <= 8, "ColumnSums: 1 to 8 rows in flight per thread");
  static_assert(Columns >= 1 && Columns <= 8, "ColumnSums: 1 to 8 block columns per thread");

 public:
  ColumnSums() = default;
  // nb block columns of R sums each (R = 1 real, 2 complex) plus mu.
  ColumnSums(int nb, int R, ElementLaunch launch = {}) : nb_(nb), slots_(nb * (R + 1)) {
    const int limit = Kokkos::TeamPolicy<Space>(1, 1).team_size_max(Probe{}, Kokkos::ParallelForTag());
    const bool device = block_mapping_for<Space> == BlockMapping::element_per_thread;
    // 256: 8 warps, occupancy limited by registers only
    const int target = launch.team_threads > 0 ? launch.team_threads : device ? 256 : limit;
    if (launch.waves < 1) throw std::invalid_argument("ChebFD's element mapping: waves must be at least 1");
    if (nb % Columns != 0)
      throw std::invalid_argument("ChebFD's element mapping: block width " + std::to_string(nb) + " is not a multiple of " +
                                  std::to_string(Columns) + " columns per thread");
    const int lanes = nb / Columns;  // threads per row
    m_ = lanes >= target ? 1 : target / lanes;
    team_ = m_ * lanes;
    if (team_ > limit)
      throw std::invalid_argument("ChebFD's element mapping: block width " + std::to_string(nb) + " needs teams of " +
                                  std::to_string(team_) + " threads, this space allows " + std::to_string(limit));
    teams_ = std::max(1, launch.waves * Space().concurrency() / team_);
    total_team_ = device ? 128 : 1;
    partial_ = Kokkos::View<double*, typename Space::memory_space>("desync::chebfd::team_sums",
                                                                   static_cast<std::size_t>(teams_) * slots_);
  }
  int team_size() const { return team_; }
  int teams() const { return teams_; }
  int rows_per_team() const { return m_; }

  // Like reduce_rows: begin 0 writes out, another begin adds into out (the same additions, the
  // same bits as reduce_rows' host sum of out and scratch). out: nb (R + 1) doubles in Space's
  // memory (SumsMemory); scratch unused (the item mapping's). Returns when the sums are written.
  template <int R, class E>
  void reduce(const std::string& label, std::int64_t begin, std::int64_t end, const E& e, double* out, double*) const {
    const std::int64_t items = end - begin;
    const int teams = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(teams_, (items + m_ - 1) / m_)));
    const Teams<R, E> k{e, begin, end, nb_, m_, teams, slots_, partial_};
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Space>(teams, team_).set_scratch_size(0, Kokkos::PerTeam(k.scratch_bytes())), k);
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string column_sums_label = "desync::chebfd::column_sums";
    Kokkos::parallel_for(column_sums_label, Kokkos::TeamPolicy<Space>(slots_, std::min(team_, total_team_)),
                         Total{partial_, Out(out, static_cast<std::size_t>(slots_)), teams, slots_, begin != 0});
    // The callers mark the timeline after the kernel: it must have run (as the copy made it).
    Space().fence();
  }

  // The launch functors below stay public: nvcc's generated kernel stubs name their types from
  // namespace scope, which a private nested type refuses.
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
    std::size_t scratch_bytes() const { return Scratch::shmem_size(static_cast<std::size_t>(m) * nb * (R + 1)); }
    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      using V = typename E::value_type;
      const int lanes = nb / Columns, t = team.team_rank(), k0 = t % lanes * Columns, q = t / lanes, size = team.team_size();
      double p[Columns][R + 1] = {};
      const std::int64_t stride = static_cast<std::int64_t>(teams) * m;
      std::int64_t i = begin + static_cast<std::int64_t>(team.league_rank()) * m + q;
      for (; i + (Depth - 1) * stride < end; i += Depth * stride) {  // Depth rows loaded, then stored (see Loaded)
        Loaded<V> l[Depth][Columns];
        for (int d = 0; d < Depth; ++d)
          for (int c = 0; c < Columns; ++c) l[d][c] = e.load(i + d * stride, k0 + c);
        for (int d = 0; d < Depth; ++d)
          for (int c = 0; c < Columns; ++c) e.store(l[d][c], p[c]);
      }
      for (; i < end; i += stride) {
        Loaded<V> l[Columns];
        for (int c = 0; c < Columns; ++c) l[c] = e.load(i, k0 + c);
        for (int c = 0; c < Columns; ++c) e.store(l[c], p[c]);
      }
      // Element (row q of the team, column k)'s sums at (q nb + k) (R + 1): the same place for every Columns.
      Scratch scr(team.team_scratch(0), static_cast<std::size_t>(m) * nb * (R + 1));
      for (int c = 0; c < Columns; ++c)
        for (int r = 0; r <= R; ++r) scr(static_cast<std::size_t>(q * nb + k0 + c) * (R + 1) + r) = p[c][r];
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
  using Out = Kokkos::View<double*, typename Space::memory_space, Kokkos::MemoryUnmanaged>;
  struct Total {
    Kokkos::View<double*, typename Space::memory_space> partial;
    Out total;
    int teams, slots;
    bool add;  // a later piece of the items: added to what the earlier pieces left
    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      const int slot = team.league_rank();
      double s = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, teams), [&](int l, double& acc) { acc += partial(static_cast<std::size_t>(l) * slots + slot); }, s);
      Kokkos::single(Kokkos::PerTeam(team), [&] {
        if (add) total(slot) += s;
        else total(slot) = s;
      });
    }
  };
 private:
  int nb_ = 0, slots_ = 0, m_ = 1, team_ = 1, teams_ = 1, total_team_ = 1;
  Kokkos::View<double*, typename Space::memory_space> partial_;
};

}  // namespace desync::chebfd
