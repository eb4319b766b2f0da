#pragma once
// The "spmv" variant of the stencil workload: the same 5-point operator stored as a sparse matrix
// (the PETSc-style baseline, papers.md C.2.1). One row per updated point, exactly 5 entries per
// row (value + 32-bit column index into the padded array, in the order centre, x-1, x+1, y-1,
// y+1, i.e. the matrix-free formula's order, so the result is bitwise the same), rows in the
// order of the sweep's row runs, and a 32-bit output position per row.
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "workloads/stencil/stencil_sweep.hpp"

namespace desync {

struct StencilCrs {
  std::int64_t rows = 0;
  Kokkos::View<std::int32_t*, MemSpace> out;  // [rows] padded position written
  Kokkos::View<std::int32_t*, MemSpace> col;  // [5 rows] padded positions read
  Kokkos::View<double*, MemSpace> val;        // [5 rows]

  void apply(const Vector& x, const Vector& y) const;  // y(out) = A x, fenced
};

// Throws DeckError when the padded array has 2^31 cells or more (32-bit columns).
StencilCrs build_stencil_crs(const StencilGrid& grid, const std::vector<RowRun>& runs, const StencilWeights& w,
                             const std::string& deck_path);

// Bytes per row of the CRS model: 5 x (8 B value + 4 B index) + 4 B output index + 8 B x + 16 B y.
constexpr double stencil_crs_bytes_per_row = 88.0;

}  // namespace desync
