#pragma once
// The SpMV's verification (docs/method.md, section 13): the last product against the generator's
// rows times the product's input. That input is taken from its owners where a size allows
// (workload/owned_values.hpp), not through the workload's own halo exchange, so that a halo
// delivered wrong (packed from the wrong rows, from the wrong partner, not at all) fails the run.
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "matrix/generator.hpp"

namespace desync::spmv {

// result = A previous over the rank's rows [first, first + rows), checked against the generator's
// rows (stochastic: the |values| normalised per row, as the workload uses a complex matrix).
// owners: previous as its owning ranks hold it, indexed by global row; empty (a large matrix):
// previous with its halo as received (rows + halo_columns.size() entries), which checks the
// local product only. Returns the rows outside 1e-12 sum_j |a_ij x_j|.
std::int64_t count_wrong_rows(const MatrixGenerator& g, GlobalIndex first, std::int32_t rows,
                              const std::vector<GlobalIndex>& halo_columns, bool stochastic, const Vector& result,
                              const Vector& previous, const std::vector<double>& owners);

}  // namespace desync::spmv
