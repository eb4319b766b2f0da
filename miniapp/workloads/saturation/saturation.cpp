// The saturation workload's run: the sweep (saturation_sweep.cpp), then per kernel and N the
// slowest streaming rank's best and median repetition, b(N) = bytes / best time, N_s, b1, b_max,
// and what goes into the file (/saturation, /metrics) and the report.
#include "workloads/saturation/saturation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/mpi_util.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "metrics/phase_stats.hpp"
#include "workloads/saturation/saturation_point.hpp"
#include "workloads/saturation/saturation_sweep.hpp"
#include "workloads/saturation/stream_arrays.hpp"

namespace desync {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Per kernel (rows) and N (columns): best and median time of the slowest streaming rank.
struct Cells {
  std::vector<double> best, median, bandwidth;  // [X, W]
};

Cells reduce_cells(const saturation::SweepPlan& p, std::vector<double> seconds, std::int64_t rows_done, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, seconds.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_MAX, comm);
  const std::size_t nk = p.kernels.size(), nw = static_cast<std::size_t>(p.max_n);
  Cells c{std::vector<double>(nk * nw, nan), std::vector<double>(nk * nw, nan), std::vector<double>(nk * nw, nan)};
  for (std::size_t k = 0; k < nk; ++k)
    for (int n = 1; n <= p.max_n; ++n) {
      if (p.row(n, k, 0) >= rows_done) continue;
      std::vector<double> reps;
      for (Index r = 0; r < p.repetitions; ++r) reps.push_back(seconds[static_cast<std::size_t>(p.row(n, k, r))]);
      const MinMedMax m = min_med_max(reps);
      const std::size_t cell = k * nw + static_cast<std::size_t>(n - 1);
      c.best[cell] = m.min;
      c.median[cell] = m.median;
      c.bandwidth[cell] = m.min > 0 ? saturation::bytes_per_element(p.kernels[k]) * static_cast<double>(p.elements) / m.min : nan;
    }
  return c;
}

std::string report(const SaturationConfig& cfg, const saturation::SweepPlan& p, const Cells& c,
                   const std::vector<saturation::SaturationSummary>& s) {
  const std::size_t nw = static_cast<std::size_t>(p.max_n);
  std::string out = fmt::format("saturation: mode \"{}\", N = 1..{}, {} elements per array ({} per array), best of {} "
                                "sweeps ({}), STREAM byte counts:\n",
                                enum_name(saturation_mode_names, cfg.mode), p.max_n, p.elements,
                                format_bytes(8.0 * static_cast<double>(p.elements)), p.repetitions,
                                p.ranks ? "the slowest streaming rank's time" : "all N threads, fenced");
  out += fmt::format("  {:>5}", "N");
  for (auto k : p.kernels) out += fmt::format(" {:>16}", fmt::format("{} [GB/s]", enum_name(saturation_kernel_names, k)));
  out += "\n";
  for (std::size_t n = 0; n < nw; ++n) {
    out += fmt::format("  {:>5}", n + 1);
    for (std::size_t k = 0; k < p.kernels.size(); ++k) out += fmt::format(" {:>16.3f}", 1e-9 * c.bandwidth[k * nw + n]);
    out += "\n";
  }
  for (std::size_t k = 0; k < p.kernels.size(); ++k)
    out += fmt::format("  {}: N_s = {} (tolerance {}), b1 = {:.3f} GB/s, b_max = {:.3f} GB/s\n",
                       enum_name(saturation_kernel_names, p.kernels[k]), s[k].n_s, cfg.tolerance, 1e-9 * s[k].b1, 1e-9 * s[k].b_max);
  if (p.max_n < 3)
    out += fmt::format("  note: {} worker(s) cannot show saturation: N_s is then at most {} by construction; sweep a whole "
                       "contention domain (inputs/saturation/domain.toml)\n", p.max_n, p.max_n);
  return out;
}

}  // namespace

WorkloadResult run_saturation(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::saturation");
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  saturation::SweepPlan p;
  p.kernels = c.kernels;
  p.repetitions = c.repetitions;
  p.ranks = c.mode == SaturationMode::ranks;
  // hwloc answers per rank; rank 0's defaults hold for all.
  std::int64_t sizes[2] = {saturation_elements(c), saturation_max_n(c, comm_size(comm))};
  MPI_Bcast(sizes, 2, MPI_INT64_T, 0, comm);
  p.elements = sizes[0];
  p.max_n = static_cast<int>(sizes[1]);

  WorkloadResult r(Timeline(saturation::sweep_event_names(), p.rows(), 0));
  const saturation::SweepOutcome o = saturation::run_sweep(p, r.timeline, comm);
  r.timeline.truncate(o.rows_done);
  r.stop_signal = o.stop_signal;
  r.elements_checked = o.checked;
  r.element_errors = o.wrong;
  const Cells cells = reduce_cells(p, o.seconds, o.rows_done, comm);

  const auto nk = static_cast<std::uint64_t>(p.kernels.size()), nw = static_cast<std::uint64_t>(p.max_n);
  std::vector<double> codes, n(nw), bytes, n_s, b1, b_max;
  std::vector<saturation::SaturationSummary> summaries;
  for (std::size_t k = 0; k < p.kernels.size(); ++k) {
    const SaturationKernel kernel = p.kernels[k];
    codes.push_back(static_cast<double>(kernel));
    bytes.push_back(saturation::bytes_per_element(kernel) * static_cast<double>(p.elements));
    const auto first = cells.bandwidth.begin() + static_cast<std::ptrdiff_t>(k * nw);
    const saturation::SaturationSummary s = saturation::summarize(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(nw)), c.tolerance);
    summaries.push_back(s);
    n_s.push_back(static_cast<double>(s.n_s));
    b1.push_back(s.b1);
    b_max.push_back(s.b_max);
    const std::string name(enum_name(saturation_kernel_names, kernel));
    r.metrics.push_back(count_value("saturation_point_" + name, s.n_s));
    r.metrics.push_back({"saturation_b1_" + name, s.b1, "B/s"});
    r.metrics.push_back({"saturation_b_max_" + name, s.b_max, "B/s"});
  }
  for (std::uint64_t i = 0; i < nw; ++i) n[i] = static_cast<double>(i + 1);
  r.metrics.push_back({"saturation_tolerance", c.tolerance, "1"});

  const auto add = [&](const char* name, const char* units, std::vector<std::uint64_t> dims, std::vector<double> v, bool integer) {
    r.datasets.push_back({"saturation", name, units, std::move(dims), std::move(v), false, integer});
  };
  add("kernel", "1", {nk}, codes, true);
  add("n", "1", {nw}, n, true);
  add("bandwidth", "B/s", {nk, nw}, cells.bandwidth, false);
  add("time", "s", {nk, nw}, cells.best, false);
  add("time_median", "s", {nk, nw}, cells.median, false);
  add("bytes", "B", {nk}, bytes, true);
  add("saturation_point", "1", {nk}, n_s, true);
  add("b1", "B/s", {nk}, b1, false);
  add("b_max", "B/s", {nk}, b_max, false);
  add("tolerance", "1", {}, {c.tolerance}, false);
  add("elements", "1", {}, {static_cast<double>(p.elements)}, true);
  add("mode", "1", {}, {p.ranks ? 1.0 : 0.0}, true);

  r.report = report(c, p, cells, summaries);
  r.work_phase = "compute";
  r.mpi_phases = {"wait"};
  return r;
}

}  // namespace desync
