#include "workloads/stencil/stencil_crs.hpp"

#include <fmt/format.h>

#include <limits>
#include <string>

#include "core/errors.hpp"

namespace desync {
namespace {

struct CrsApply {
  Kokkos::View<const std::int32_t*, MemSpace> out, col;
  Kokkos::View<const double*, MemSpace> val;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const std::int64_t e = 5 * r;
    double s = val(e) * x(col(e));
    s += val(e + 1) * x(col(e + 1));
    s += val(e + 2) * x(col(e + 2));
    s += val(e + 3) * x(col(e + 3));
    s += val(e + 4) * x(col(e + 4));
    y(out(r)) = s;
  }
};

}  // namespace

void StencilCrs::apply(const Vector& x, const Vector& y) const {
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string crs_apply_label = "desync::stencil::crs_apply";
  Kokkos::parallel_for(crs_apply_label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, rows),
                       CrsApply{out, col, val, x, y});
  ExecSpace().fence();
}

StencilCrs build_stencil_crs(const StencilGrid& grid, const std::vector<RowRun>& runs, const StencilWeights& w,
                             const std::string& deck_path) {
  if (grid.padded() > std::numeric_limits<std::int32_t>::max())
    throw DeckError(fmt::format("{}: error: [stencil] variant = \"spmv\": the local padded block ({} x {}) has 2^31 "
                                "cells or more, beyond 32-bit column indices; use more ranks or variant = \"base\"",
                                deck_path, grid.wx(), grid.wy()));
  StencilCrs a;
  a.rows = run_points(runs);
  a.out = Kokkos::View<std::int32_t*, MemSpace>("desync::stencil::crs_out", static_cast<std::size_t>(a.rows));
  a.col = Kokkos::View<std::int32_t*, MemSpace>("desync::stencil::crs_col", static_cast<std::size_t>(5 * a.rows));
  a.val = Kokkos::View<double*, MemSpace>("desync::stencil::crs_val", static_cast<std::size_t>(5 * a.rows));
  auto out = Kokkos::create_mirror_view(a.out);
  auto col = Kokkos::create_mirror_view(a.col);
  auto val = Kokkos::create_mirror_view(a.val);
  const std::int64_t wx = grid.wx();
  const double v[5] = {w.c, w.xm, w.xp, w.ym, w.yp};
  const std::int64_t d[5] = {0, -1, 1, -wx, wx};
  std::size_t r = 0;
  for (const auto& run : runs)
    for (std::int64_t i = run.i0; i < run.i1; ++i, ++r) {
      const std::int64_t p = grid.at(i, run.j);
      out(r) = static_cast<std::int32_t>(p);
      for (int k = 0; k < 5; ++k) {
        col(5 * r + k) = static_cast<std::int32_t>(p + d[k]);
        val(5 * r + k) = v[k];
      }
    }
  Kokkos::deep_copy(a.out, out);
  Kokkos::deep_copy(a.col, col);
  Kokkos::deep_copy(a.val, val);
  return a;
}

}  // namespace desync
