#pragma once
// The 5-point stencil as a sparse matrix (matrices.md §6, form 1): a square matrix on nx x ny
// interior unknowns with Dirichlet boundaries, row r = iy * nx + ix (x fastest). Row r holds
// r - nx (y-1), r - 1 (x-1), r (centre), r + 1 (x+1), r + nx (y+1), each neighbour only if it is
// an interior unknown. nnz = 5 nx ny - 2 (nx + ny); bandwidth nx (if ny > 1).
//
// Deliberate exception to matrices.md §1's zero dropping: all existing entries are stored even
// when their weight is exactly 0, so that the pattern (and nnzr = 5 in the bulk) does not depend
// on the weights, e.g. Jacobi's centre weight 0. Rows are still sorted by column.
#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

class Stencil5 final : public MatrixGenerator {
 public:
  explicit Stencil5(const Stencil5Params& p);
  GlobalIndex rows() const override { return rows_; }
  int max_row_entries() const override { return 5; }
  bool is_complex() const override { return false; }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override;

 private:
  Stencil5Params p_;
  GlobalIndex rows_;
};

}  // namespace desync
