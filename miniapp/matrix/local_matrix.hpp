#pragma once
// One rank's rows of a generated matrix in CRS form on the default memory space. Columns are
// renumbered to 32-bit local indices: the rank's own columns first (column - first_row), then
// the halo columns it needs from other ranks, sorted by global index, which groups them by
// owner rank in ascending order. Built from the generator in two streaming passes (count, fill),
// so the only memory beyond the CRS arrays is the halo column list.
#include <vector>

#include "core/types.hpp"
#include "matrix/generator.hpp"
#include "matrix/row_partition.hpp"

namespace desync {

template <class T>
struct LocalMatrix {
  GlobalIndex first_row = 0;
  std::int32_t rows = 0;  // also the number of local columns
  std::int64_t nnz = 0;
  RowOffsets row_ptr;     // rows + 1
  LocalColumns col;       // nnz, in [0, rows + halo)
  Values<T> val;          // nnz
  std::vector<GlobalIndex> halo_columns;  // global index of local column rows + h

  std::int32_t halo() const { return static_cast<std::int32_t>(halo_columns.size()); }
};

// T is double (real generators; the imaginary part must be 0) or Complex.
template <class T>
LocalMatrix<T> build_local_matrix(const MatrixGenerator& g, const RowPartition& p, int rank);

}  // namespace desync
