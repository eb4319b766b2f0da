#include "workloads/saturation/saturation_point.hpp"

#include <cmath>
#include <limits>

namespace desync::saturation {

SaturationSummary summarize(const std::vector<double>& b, double tolerance) {
  const auto usable = [](double v) { return std::isfinite(v) && v > 0.0; };
  SaturationSummary s;
  s.b1 = !b.empty() && usable(b[0]) ? b[0] : std::numeric_limits<double>::quiet_NaN();
  s.b_max = std::numeric_limits<double>::quiet_NaN();
  for (double v : b)
    if (usable(v) && !(v <= s.b_max)) s.b_max = v;  // the first usable value replaces NaN
  if (std::isnan(s.b_max)) return s;
  const double threshold = (1.0 - tolerance) * s.b_max;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (usable(b[i]) && b[i] >= threshold) {
      s.n_s = static_cast<std::int64_t>(i) + 1;
      break;
    }
  return s;
}

}  // namespace desync::saturation
