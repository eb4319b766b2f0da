#pragma once
// The matrix-free Jacobi sweep of the stencil workload (base and CA) and the start values. One
// work item is one row run (workload/stencil_grid.hpp): a row segment inside one tile, runs in
// tile-major order, so the tiles are the loop blocking and the ratio rule is in the runs. The
// update is evaluated in a fixed order, the same in the CRS kernel and the serial reference:
//   out = ((((c*x + xm*x[i-1]) + xp*x[i+1]) + ym*x[j-1]) + yp*x[j+1])
// (the build does not contract to FMA: no -march / -mfma; see docs/method.md, section 14).
#include <Kokkos_Core.hpp>

#include "kokkos_compat/staging_space.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/device_copy.hpp"
#include "core/types.hpp"
#include "workloads/stencil/stencil_grid.hpp"

namespace desync {

using RunView = Kokkos::View<RowRun*, MemSpace>;

struct StencilWeights {
  double c, xm, xp, ym, yp;
};

// The start value of global interior point (gx, gy): a deterministic, non-symmetric pattern.
KOKKOS_INLINE_FUNCTION double stencil_initial(std::int64_t gx, std::int64_t gy) {
  return static_cast<double>((gx * 7 + gy * 13) % 17) / 16.0;
}

KOKKOS_INLINE_FUNCTION double stencil_update(const StencilWeights& w, double centre, double left, double right,
                                             double down, double up) {
  return w.c * centre + w.xm * left + w.xp * right + w.ym * down + w.yp * up;
}

struct StencilSweep {
  Kokkos::View<const RowRun*, MemSpace> runs;
  Vector in, out;
  std::int64_t wx;
  StencilWeights w;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const {
    const RowRun r = runs(k);
    const double* KOKKOS_RESTRICT x = in.data();
    double* KOKKOS_RESTRICT y = out.data();
    const std::int64_t row = static_cast<std::int64_t>(r.j) * wx;
    for (std::int64_t i = row + r.i0; i < row + r.i1; ++i)
      y[i] = stencil_update(w, x[i], x[i - 1], x[i + 1], x[i - wx], x[i + wx]);
  }
};

// The GPU's mapping of the same sweep: a team per row run, its threads along the run, so that
// consecutive threads update consecutive points (coalesced). A thread per run walks its row
// alone and its neighbours read rows wx apart: on an H200 that sweep ran at 0.14 of the
// roofline (docs/method.md section 28). Each point's update is the same expression, so both
// mappings give the same bits.
struct StencilSweepTeams {
  Kokkos::View<const RowRun*, MemSpace> runs;
  Vector in, out;
  std::int64_t wx;
  StencilWeights w;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const RowRun r = runs(team.league_rank());
    const double* KOKKOS_RESTRICT x = in.data();
    double* KOKKOS_RESTRICT y = out.data();
    const std::int64_t row = static_cast<std::int64_t>(r.j) * wx;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r.i0, r.i1), [&](std::int32_t i) {
      const std::int64_t p = row + i;
      y[p] = stencil_update(w, x[p], x[p - 1], x[p + 1], x[p - wx], x[p + wx]);
    });
  }
};

// Which mapping a space sweeps with, chosen at compile time by its memory (tests force either).
enum class SweepMapping { run_per_thread, run_per_team };
template <class Space>
inline constexpr SweepMapping sweep_mapping_for =
    compat::host_accessible<Space> ? SweepMapping::run_per_thread : SweepMapping::run_per_team;

// One sweep over the row runs, in -> out.
template <class Space = ExecSpace, SweepMapping M = sweep_mapping_for<Space>>
void sweep_stencil(const RunView& runs, const Vector& in, const Vector& out, std::int64_t wx, const StencilWeights& w) {
  const auto n = static_cast<std::int64_t>(runs.extent(0));
  static const std::string label = "desync::stencil::sweep";  // once: Kokkos copies a literal per launch
  if constexpr (M == SweepMapping::run_per_team)
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Space>(static_cast<int>(n), Kokkos::AUTO),
                         StencilSweepTeams{runs, in, out, wx, w});
  else
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                         StencilSweep{runs, in, out, wx, w});
}

// Fills the whole padded array: interior points (own block and ghost zone) with their start
// values, cells outside the global interior with the boundary value.
struct StencilInit {
  Vector x;
  std::int64_t wx, x0, y0, g, n;
  double boundary;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t gx = p % wx - g + x0, gy = p / wx - g + y0;
    x(p) = (gx >= 0 && gx < n && gy >= 0 && gy < n) ? stencil_initial(gx, gy) : boundary;
  }
};

inline RunView runs_to_device(const std::vector<RowRun>& runs) { return to_device("desync::stencil::runs", runs); }

inline std::int64_t run_points(const std::vector<RowRun>& runs) {
  std::int64_t p = 0;
  for (const auto& r : runs) p += r.i1 - r.i0;
  return p;
}

}  // namespace desync
