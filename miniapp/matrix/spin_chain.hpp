#pragma once
// SPIN: the XXZ spin-1/2 chain in the sector of `up` up spins (matrices.md §2). Row r is the
// state whose bitmask (bit j = spin up at site j) has colex rank r; values follow ScaMaC.
#include <vector>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

class SpinChain final : public MatrixGenerator {
 public:
  explicit SpinChain(const SpinParams& p);
  GlobalIndex rows() const override { return rows_; }
  int max_row_entries() const override { return bonds_ + 1; }
  bool is_complex() const override { return false; }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override;

 private:
  SpinParams p_;
  GlobalIndex rows_;
  int bonds_;
  std::vector<double> field_;  // random field per site (disorder), zeros without
};

}  // namespace desync
