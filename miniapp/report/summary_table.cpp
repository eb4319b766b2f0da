#include "report/summary_table.hpp"

#include <fmt/format.h>

#include <cmath>

namespace desync {
namespace {
std::string ms(double s) { return std::isnan(s) ? std::string("-") : fmt::format("{:.4f}", 1e3 * s); }
}  // namespace

std::string summary_table(const RunMetrics& m, std::int64_t iterations, const std::string& verification,
                          const std::string& output) {
  std::string s = "\nper-phase time per iteration (ms): median over iterations of each rank, then over ranks\n";
  s += fmt::format("  {:<10} {:>12} {:>6} {:>12} {:>12} {:>6}\n", "phase", "min", "rank", "median", "max", "rank");
  const auto& names = m.layout.names;
  for (std::size_t p = 0; p < names.size(); ++p) {
    const auto& o = m.over_ranks[p];
    if (std::isnan(o.stat.median)) continue;
    s += fmt::format("  {:<10} {:>12} {:>6} {:>12} {:>12} {:>6}\n", names[p],
                     ms(o.stat.min), o.argmin, ms(o.stat.median), ms(o.stat.max), o.argmax);
  }
  s += fmt::format("work-phase bandwidth: {:.2f} GB/s summed over ranks (per rank: bytes per iteration / median work time)\n",
                   1e-9 * m.aggregate_bandwidth);
  s += fmt::format("effective bandwidth: {:.2f} GB/s (all bytes / total time)\n", 1e-9 * m.effective_bandwidth);
  s += fmt::format("total time: {:.3f} s for {} measured iterations\n", m.total_time, iterations);
  s += fmt::format("verification: {}\n", verification);
  if (!output.empty()) s += fmt::format("output: {}\n", output);
  return s;
}

}  // namespace desync
