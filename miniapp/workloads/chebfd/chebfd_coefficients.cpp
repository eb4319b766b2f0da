#include "workloads/chebfd/chebfd_coefficients.hpp"

#include <algorithm>
#include <cmath>

namespace desync::chebfd {

Scaling scaling(double lo, double hi) {
  const double margin = 0.01 * std::max(hi - lo, 1e-300);
  const double a = lo - margin, b = hi + margin;
  return {2.0 / (b - a), -(a + b) / (b - a)};
}

std::vector<double> damped_coefficients(int np, const Scaling& s, double lambda_min, double lambda_max) {
  const double pi = std::acos(-1.0);
  auto theta = [&](double lambda) { return std::acos(std::clamp(s.alpha * lambda + s.beta, -1.0, 1.0)); };
  const double t_lo = theta(lambda_min), t_hi = theta(lambda_max);  // t_lo >= t_hi
  const double n1 = np + 1.0;
  std::vector<double> gc(static_cast<std::size_t>(np) + 1);
  for (int p = 0; p <= np; ++p) {
    const double c = p == 0 ? (t_lo - t_hi) / pi : 2.0 * (std::sin(p * t_lo) - std::sin(p * t_hi)) / (p * pi);
    const double g = ((n1 - p) * std::cos(pi * p / n1) + std::sin(pi * p / n1) / std::tan(pi / n1)) / n1;
    gc[static_cast<std::size_t>(p)] = g * c;
  }
  return gc;
}

}  // namespace desync::chebfd
