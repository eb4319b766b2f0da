#pragma once
// Shared by the benchmarks: argument parsing and the best-of-N timing they all use.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/clock.hpp"

namespace desync::bench {

// "--name value" from argv, or the default.
inline long long arg(int argc, char** argv, const char* name, long long def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atoll(argv[i + 1]);
  return def;
}

// Minimum wall time of reps calls of f: the least disturbed sample on a shared machine.
template <class F>
double best_time(int reps, F&& f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

// The median of a sample (the upper one of an even count), taken by value: the caller's order stays.
inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace desync::bench
