#pragma once
// Spectral bounds for the ChebFD scaling ([chebfd] bounds): Gershgorin discs (one allreduce), or
// a few Lanczos steps on the distributed matrix at setup, with the Ritz extremes widened by the
// last off-diagonal (every eigenvalue of T_k is within beta_k of one of A's) and clipped to the
// Gershgorin interval. Both are collective and run once, before the measured loop.
#include <mpi.h>

#include <utility>
#include <vector>

#include "comm/halo_plan.hpp"
#include "config/config.hpp"
#include "workloads/chebfd/chebfd_config.hpp"
#include "matrix/local_matrix.hpp"

namespace desync::chebfd {

template <class T>
std::pair<double, double> gershgorin_bounds(const LocalMatrix<T>& m, MPI_Comm comm);

template <class T>
std::pair<double, double> lanczos_bounds(const LocalMatrix<T>& m, const HaloPlan& plan, int steps, MPI_Comm comm,
                                         const CommConfig& opt = {});

// Smallest and largest eigenvalue of the symmetric tridiagonal matrix with diagonal a and
// off-diagonal b (b.size() == a.size() - 1), by Sturm-sequence bisection.
std::pair<double, double> tridiagonal_extremes(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace desync::chebfd
