#include "metrics/phase_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/mpi_util.hpp"
#include "record/iteration_events.hpp"

namespace desync {
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double last_event(const Timeline& tl, std::int64_t it) {
  double last = nan;
  for (int e = 0; e < tl.events(); ++e)
    if (!std::isnan(tl.at(it, e))) last = std::isnan(last) ? tl.at(it, e) : std::max(last, tl.at(it, e));
  return last;
}
}  // namespace

std::vector<std::string> phase_names() { return {"compute", "delay", "post", "wait", "barrier", "iteration"}; }

std::vector<std::vector<double>> phase_durations(const Timeline& tl) {
  const std::int64_t first = tl.warmup(), n = tl.iterations() - tl.warmup();
  std::vector<std::vector<double>> d(phase::count, std::vector<double>(static_cast<std::size_t>(n), nan));
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t it = first + k;
    const auto at = [&](int e) { return tl.at(it, e); };
    const auto i = static_cast<std::size_t>(k);
    const bool delayed = !std::isnan(at(ev::delay_end));
    d[phase::compute][i] = at(ev::compute_end) - at(ev::compute_begin);
    d[phase::delay][i] = delayed ? at(ev::delay_end) - at(ev::delay_begin) : 0.0;
    d[phase::post][i] = at(ev::post_end) - (delayed ? at(ev::delay_end) : at(ev::compute_end));
    d[phase::wait][i] = at(ev::wait_end) - at(ev::post_end);
    d[phase::barrier][i] = at(ev::barrier_end) - at(ev::wait_end);
    const double end = it + 1 < tl.iterations() ? tl.at(it + 1, ev::compute_begin) : last_event(tl, it);
    d[phase::iteration][i] = end - at(ev::compute_begin);
  }
  return d;
}

MinMedMax min_med_max(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  if (v.empty()) return {nan, nan, nan};
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return {v.front(), med, v.back()};
}

std::vector<MinMedMax> rank_phase_stats(const Timeline& tl) {
  std::vector<MinMedMax> s;
  for (auto& durations : phase_durations(tl)) s.push_back(min_med_max(std::move(durations)));
  return s;
}

RunMetrics compute_metrics(const Timeline& tl, double bytes_per_sweep, MPI_Comm comm) {
  const int size = comm_size(comm);
  RunMetrics m;
  m.local = rank_phase_stats(tl);

  std::vector<double> mine;
  for (const auto& s : m.local) mine.insert(mine.end(), {s.min, s.median, s.max});
  std::vector<double> all(mine.size() * static_cast<std::size_t>(size));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                static_cast<int>(mine.size()), MPI_DOUBLE, comm);
  m.all.assign(static_cast<std::size_t>(size), std::vector<MinMedMax>(phase::count));
  for (int r = 0; r < size; ++r)
    for (int p = 0; p < phase::count; ++p) {
      const double* x = &all[(static_cast<std::size_t>(r) * phase::count + p) * 3];
      m.all[r][p] = {x[0], x[1], x[2]};
    }

  for (int p = 0; p < phase::count; ++p) {
    std::vector<double> medians;
    OverRanks o;
    for (int r = 0; r < size; ++r) {
      const double x = m.all[r][p].median;
      medians.push_back(x);
      if (std::isnan(x)) continue;
      if (o.argmin < 0 || x < m.all[o.argmin][p].median) o.argmin = r;
      if (o.argmax < 0 || x > m.all[o.argmax][p].median) o.argmax = r;
    }
    o.stat = min_med_max(medians);
    m.over_ranks.push_back(o);
  }

  m.bytes_per_sweep.resize(static_cast<std::size_t>(size));
  MPI_Allgather(&bytes_per_sweep, 1, MPI_DOUBLE, m.bytes_per_sweep.data(), 1, MPI_DOUBLE, comm);
  for (int r = 0; r < size; ++r) {
    const double t = m.all[r][phase::compute].median;
    m.bandwidth.push_back(t > 0 ? m.bytes_per_sweep[r] / t : nan);
    m.aggregate_bandwidth += m.bandwidth.back();
  }

  double span[2] = {std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()};
  const std::int64_t measured = tl.iterations() - tl.warmup();
  if (measured > 0) {
    span[0] = tl.at(tl.warmup(), ev::compute_begin);
    span[1] = -last_event(tl, tl.iterations() - 1);
  }
  MPI_Allreduce(MPI_IN_PLACE, span, 2, MPI_DOUBLE, MPI_MIN, comm);
  m.total_time = -span[1] - span[0];
  double bytes = 0.0;
  for (double b : m.bytes_per_sweep) bytes += b * static_cast<double>(measured);
  m.effective_bandwidth = m.total_time > 0 ? bytes / m.total_time : nan;
  return m;
}

}  // namespace desync
