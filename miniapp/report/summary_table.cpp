#include "report/summary_table.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/memory.hpp"

namespace desync {
namespace {
std::string ms(double s) { return std::isnan(s) ? std::string("-") : fmt::format("{:.4f}", 1e3 * s); }

std::string value_text(const NamedValue& v) {
  if (v.count) return fmt::format("{}", static_cast<long long>(v.value));
  if (v.units == "B/s") return fmt::format("{:.4g}", 1e-9 * v.value);  // printed in GB/s, stored in B/s
  return fmt::format("{:.6g}", v.value);
}
// Dimensionless values get no unit column text at all: a lone "1" would read as a second number.
std::string unit_text(const std::string& u) {
  if (u == "B/s") return "GB/s";
  return u == "1" ? std::string() : u;
}
}  // namespace

std::string format_seconds(double s) {
  if (std::isnan(s)) return "-";
  const double a = std::fabs(s);
  if (a >= 1.0 || a == 0.0) return fmt::format("{:.3f} s", s);
  if (a >= 1e-3) return fmt::format("{:.3f} ms", 1e3 * s);
  return fmt::format("{:.3f} us", 1e6 * s);
}

std::string bandwidth_note(double node_bytes, double node_llc, bool oversubscribed) {
  std::string n;
  if (node_llc > 0 && node_bytes > 0 && node_bytes <= node_llc)
    n += fmt::format("note: the working set of a node ({} per iteration) fits in its last-level caches ({}): "
                     "the bandwidths above are cache, not memory, bandwidths\n",
                     format_bytes(node_bytes), format_bytes(node_llc));
  if (oversubscribed)
    n += "note: ranks time-share cores (node oversubscribed): per-rank times overlap, and summed bandwidths "
         "overstate what the node moved\n";
  return n;
}

std::string summary_table(const RunMetrics& m, const std::vector<NamedValue>& extra, std::int64_t iterations,
                          const std::string& verification, const std::string& output, const std::string& notes) {
  std::string s = "\nper-phase time per iteration (ms): median over iterations of each rank, then over ranks\n";
  s += fmt::format("  {:<14} {:>12} {:>6} {:>12} {:>12} {:>6}\n", "phase", "min", "rank", "median", "max", "rank");
  const auto& names = m.layout.names;
  for (std::size_t p = 0; p < names.size(); ++p) {
    const auto& o = m.over_ranks[p];
    if (std::isnan(o.stat.median)) continue;
    s += fmt::format("  {:<14} {:>12} {:>6} {:>12} {:>12} {:>6}\n", names[p],
                     ms(o.stat.min), o.argmin, ms(o.stat.median), ms(o.stat.max), o.argmax);
  }
  s += "\nmetrics:\n";
  const auto row = [&](const std::string& name, const std::string& value, const std::string& unit, const std::string& what) {
    s += fmt::format("  {:<28} {:>14} {:<8} {}\n", name, value, unit, what);
  };
  if (m.aggregate_bandwidth > 0.0) {  // workloads without a memory-traffic model (pingpong) skip these
    row("work_phase_bandwidth", fmt::format("{:.4g}", 1e-9 * m.aggregate_bandwidth), "GB/s",
        "summed over ranks: bytes per iteration / median work time");
    row("effective_bandwidth", fmt::format("{:.4g}", 1e-9 * m.effective_bandwidth), "GB/s", "all bytes / total time");
  }
  row("total_time", format_seconds(m.total_time), "", fmt::format("{} measured iterations", iterations));
  for (const auto& v : extra) row(v.name, value_text(v), unit_text(v.units), "");
  s += notes;
  s += fmt::format("verification: {}\n", verification);
  if (!output.empty()) s += fmt::format("output: {}\n", output);
  return s;
}

}  // namespace desync
