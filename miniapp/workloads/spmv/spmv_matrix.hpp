#pragma once
// A rank's matrix split for the SpMV schemes (papers.md A.3.3): the local part (columns the rank
// owns) and the remote part (halo columns, renumbered from 0). Both are CRS over all local rows,
// so the result is written by the local kernel and updated by the remote one.
#include "core/types.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/split_matrix.hpp"

#include <KokkosSparse_CrsMatrix.hpp>

namespace desync {

using KkMatrix = KokkosSparse::CrsMatrix<double, int, Kokkos::Device<ExecSpace, MemSpace>, void, std::size_t>;

using CrsPart = CrsBlock<double>;

struct SplitMatrix {
  std::int32_t rows = 0, halo = 0;
  CrsPart local, remote;
  KkMatrix kk_local, kk_remote;  // the same arrays, for the KokkosKernels reference kernel
};

// The rank's rows with real values: a complex generator's magnitudes (the stochastic matrix only
// uses |a_ij|), a real generator's values themselves. The spmv workload and bench_spmv use it.
LocalMatrix<double> real_local_matrix(const MatrixGenerator& g, const RowPartition& p, int rank);

// stochastic: every entry replaced by |a_ij| / sum_j |a_ij| (a row-stochastic matrix with the
// generator's pattern: back-to-back products neither overflow nor underflow).
SplitMatrix split_matrix(const LocalMatrix<double>& m, bool stochastic);

// The value a row-stochastic matrix stores for generator value v in a row with absolute sum s.
inline double stochastic_value(double v, double row_abs_sum) { return (v < 0 ? -v : v) / row_abs_sum; }

}  // namespace desync
