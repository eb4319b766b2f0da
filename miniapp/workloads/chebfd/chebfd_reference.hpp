#pragma once
// Verification of the ChebFD filter (docs/method.md section 15).
//  * Small matrices (global rows <= [chebfd] verify_rows): rank 0 generates every row and runs the
//    same filter serially, one vector at a time in complex arithmetic, from the same start block
//    (chebfd::start_re/start_im of the global row and vector index), and compares the gathered
//    filtered block X and the moments.
//  * Every size: invariants of the reduced moments (a Hermitian H scaled into [-1, 1]).
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/chebfd/chebfd_config.hpp"
#include "matrix/generator.hpp"
#include "workloads/chebfd/chebfd_coefficients.hpp"
#include "workloads/chebfd/chebfd_filter.hpp"

namespace desync::chebfd {

// Relative tolerance of the reference comparison for degree np: 1e-10 * max(1, (np/50)^2)
// (rounding in the three-term recurrence grows at most quadratically with the degree).
double reference_tolerance(int np);

// x_all: the filtered search space, global row-major per block (block b at b * nr * nb). Returns
// the number of X entries and moments outside the tolerance; `why` names the worst one.
std::int64_t compare_with_reference(const MatrixGenerator& g, const ChebfdConfig& c, const Scaling& s,
                                    const std::vector<double>& gc, const std::vector<std::complex<double>>& x_all,
                                    const Moments& m, std::string& why);

// Per vector: mu_p <= mu_1 (1 + 1e-8) (|T_p| <= 1 on [-1, 1]), |eta_p|^2 <= mu_p mu_{p+1} (1 + 1e-8)
// (Cauchy-Schwarz), |Im eta_p| <= 1e-8 mu_1 (Hermitian H), all finite. Returns the violations.
std::int64_t check_moment_invariants(const Moments& m, std::string& why);

}  // namespace desync::chebfd
