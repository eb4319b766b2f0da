#pragma once
// The scalars of the ChebFD filter (matrices.md §7.1-7.2): the scaling alpha, beta that maps
// [a, b] onto [-1, 1], and the damped window coefficients g_p c_p (Jackson kernel).
#include <vector>

namespace desync::chebfd {

struct Scaling {
  double alpha = 1.0, beta = 0.0;
};

// Bounds [lo, hi] widened by 1% of their width on each side (the safety margin of §7.1).
Scaling scaling(double lo, double hi);

// gc[p] = g_p c_p for p = 0 .. np: c_p the Chebyshev moments of the indicator function of
// [lambda_min, lambda_max] (mapped and clamped to [-1, 1]), g_p the Jackson damping factors.
std::vector<double> damped_coefficients(int np, const Scaling& s, double lambda_min, double lambda_max);

}  // namespace desync::chebfd
