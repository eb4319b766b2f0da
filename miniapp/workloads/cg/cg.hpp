#pragma once
// A miniFE-like conjugate gradient (papers.md D.3; docs/method.md, section 17): unpreconditioned
// CG on a symmetric positive definite [matrix] (minife or stencil5) with a manufactured right-hand
// side b = A x*, from x = 0. Per iteration:
//   SpMV q = A p with the halo exchange of p, either non-overlapped (exchange, then all rows) or
//   overlapped (post, the rows that need no halo value, wait, the rows that do);
//   pq = <p, q> (MPI_Allreduce); x += alpha p, r -= alpha q, rr = <r, r> (MPI_Allreduce);
//   p = r + beta p;
// then the delay slot and [comm] sync. The two dot products are the global synchronization.
// Each row is computed whole by one kernel in both variants, so every variant and every comm
// option gives bitwise the same iterates.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/cg/cg_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

WorkloadResult run_cg(const Config& cfg, MPI_Comm comm);
MemoryEstimate cg_memory(const Config& cfg, int rank, int size);

// miniFE's flop count of one CG iteration on n rows with nnz nonzeros: 2 nnz (SpMV) + 4 n (two
// dots) + 6 n (three vector updates).
inline double cg_flops_per_iteration(double n, double nnz) { return 2.0 * nnz + 10.0 * n; }

// The events of one iteration (the timeline's, and the simulated program's); the overlapped SpMV
// marks interior_end between post_end and wait_end, the plain one leaves it NaN.
std::vector<std::string> cg_event_names();

}  // namespace desync
