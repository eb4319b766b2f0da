#pragma once
// The matrix-free Jacobi sweep of the stencil workload (base and CA) and the start values. One
// work item is one row run (workload/stencil_grid.hpp): a row segment inside one tile, runs in
// tile-major order, so the tiles are the loop blocking and the ratio rule is in the runs. The
// update is evaluated in a fixed order, the same in the CRS kernel and the serial reference:
//   out = ((((c*x + xm*x[i-1]) + xp*x[i+1]) + ym*x[j-1]) + yp*x[j+1])
// (the build does not contract to FMA: no -march / -mfma; see docs/method.md, section 14).
#include <Kokkos_Core.hpp>

#include <cstdint>
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
