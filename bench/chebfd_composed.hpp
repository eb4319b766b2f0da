#pragma once
// bench_chebfd's reference: ChebFD's degree step composed of separate KokkosKernels calls, in a
// unit of its own (chebfd_composed.cpp) so that KokkosKernels' SpMV, instantiated there (it is
// built without explicit instantiation), compiles beside the fused kernels' unit.
#include "workloads/spmv/spmv_matrix.hpp"

namespace desync::bench {

// The best of reps times of one composed step on the n x n matrix a and blocks of nb columns:
// W = 2 a_1 A U - W (spmv), W += 2 a_2 U (axpy), the dots W.U and U.U per column, X += a_3 W.
double composed_step_time(const KkMatrix& a, std::int32_t n, int nb, int reps);

}  // namespace desync::bench
