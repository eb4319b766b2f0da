#pragma once
// CRS SpMV with V vector lanes per row (y = A_local x): a team of rows, each row's entries
// strided over its V lanes and summed by the lanes' reduction. On a GPU the lanes are
// consecutive threads of a warp, so a row's col and val loads are coalesced where a thread per
// row (LocalProduct) reads its own entries alone; the CSR-vector mapping of GPU SpMV libraries.
// Not yet what the workload runs: bench_spmv times V = 1 .. 32 beside LocalProduct on a device
// (docs/method.md section 28), and the next GPU run decides. On a host build the lanes run in
// order in one thread, so y is LocalProduct's to the bit (tests/unit/test_sell_mapping.cpp); on a
// GPU the lanes' partial sums are added in a tree: y agrees within rounding.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>

#include "core/types.hpp"

namespace desync::spmv {

template <class Space>
struct LocalProductLanes {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  RowOffsets row_ptr;
  LocalColumns col;
  Values<double> val;
  Vector x, y;
  std::int32_t rows;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int32_t i = team.league_rank() * team.team_size() + team.team_rank();
    if (i >= rows) return;
    const std::size_t b = row_ptr(i), e = row_ptr(i + 1);
    double sum = 0.0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, static_cast<std::int64_t>(e - b)),
        [&](std::int64_t k, double& s) { s += val(b + static_cast<std::size_t>(k)) * x(col(b + static_cast<std::size_t>(k))); },
        sum);
    Kokkos::single(Kokkos::PerThread(team), [&] { y(i) = sum; });
  }
};

// The launch: teams of `threads` / lanes rows (256 threads by default; at most what the space
// allows a team: a host space's teams are its threads, its lanes run in order in each).
template <class Space>
Kokkos::TeamPolicy<Space> lanes_policy(const LocalProductLanes<Space>& f, int lanes, int threads = 256) {
  const int limit = Kokkos::TeamPolicy<Space>(1, 1, lanes).team_size_max(f, Kokkos::ParallelForTag());
  const int per_team = std::max(1, std::min(threads / lanes, limit));
  return Kokkos::TeamPolicy<Space>((f.rows + per_team - 1) / per_team, per_team, lanes);
}

}  // namespace desync::spmv
