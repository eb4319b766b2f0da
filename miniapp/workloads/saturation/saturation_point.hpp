#pragma once
// The saturation point of a measured curve b(N), N = 1 .. W (papers.md B.5):
//   b_max = max_N b(N),   b1 = b(1),
//   N_s   = the smallest N with b(N) >= (1 - tolerance) b_max,
// the domain's saturation point: the workers needed for (almost) full bandwidth. The model
// the papers use for T_exec = N V / b(N) is b(N) = min(N b1, b_S) with b_S = b_max. Pure.
#include <cstdint>
#include <vector>

namespace desync::saturation {

struct SaturationSummary {
  std::int64_t n_s = 0;  // 0: no finite positive b(N)
  double b1 = 0.0;       // b(1); NaN if not measured
  double b_max = 0.0;    // NaN if no finite positive b(N)
};

// b[i] = b(N = i + 1); NaN, Inf or non-positive entries (cells a stopped run never reached)
// are skipped. tolerance in [0, 1).
SaturationSummary summarize(const std::vector<double>& b, double tolerance);

}  // namespace desync::saturation
