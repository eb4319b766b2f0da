#pragma once
// A distributed vector as the ranks that own its rows hold it, for a workload's verification: a
// product checked against values taken through the workload's own halo exchange would pass
// with a halo delivered wrong (packed from the wrong rows, from the wrong partner, not at all),
// since the check would read the same wrong values. Gathered from the owners instead, the
// halo's values are compared with an independent copy (spmv and cg; docs/method.md, sections 13
// and 17).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "matrix/row_partition.hpp"

namespace desync {

// Up to this many matrix rows the verification gathers (8 B a row on every rank); above, it uses
// the halo as received and checks the local product only.
inline constexpr std::int64_t gathered_check_rows = std::int64_t{1} << 20;

// Collective: every rank's owned values of `owned` (its part.rows(rank) first entries), indexed
// by global row; empty for a matrix of more than gathered_check_rows rows (the same decision on
// every rank).
std::vector<double> gather_owned_values(const Vector& owned, const RowPartition& part, MPI_Comm comm);

}  // namespace desync
