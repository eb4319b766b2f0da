#include "record/timeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace desync {
namespace {

// Checked before the data is allocated: a negative count would otherwise become a huge size_t.
std::size_t timeline_cells(std::int64_t iterations, std::int64_t warmup, std::size_t events) {
  if (iterations < 0 || warmup < 0 || warmup > iterations) throw std::invalid_argument("Timeline: bad sizes");
  return static_cast<std::size_t>(iterations) * events;
}

}  // namespace

// Every cell written (NaN) at construction, so the first marks in the loop do not page-fault.
Timeline::Timeline(std::vector<std::string> event_names, std::int64_t iterations,
                   std::int64_t warmup)
    : names_(std::move(event_names)),
      n_events_(static_cast<int>(names_.size())),
      iterations_(iterations),
      warmup_(warmup),
      planned_warmup_(warmup),
      data_(timeline_cells(iterations, warmup, names_.size()), std::numeric_limits<double>::quiet_NaN()) {}

int Timeline::event_index(const std::string& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? -1 : static_cast<int>(it - names_.begin());
}

double Timeline::median_span(std::int64_t first, std::int64_t end) const {
  std::vector<double> spans;
  for (std::int64_t it = std::max<std::int64_t>(first, 0); it < std::min(end, iterations_); ++it) {
    double lo = INFINITY, hi = -INFINITY;
    for (int e = 0; e < n_events_; ++e) {
      const double t = at(it, e);
      if (std::isnan(t)) continue;
      lo = std::min(lo, t);
      hi = std::max(hi, t);
    }
    if (hi > lo) spans.push_back(hi - lo);
  }
  if (spans.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t mid = spans.size() / 2;
  std::nth_element(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(mid), spans.end());
  if (spans.size() % 2 == 1) return spans[mid];
  const double upper = spans[mid];
  return (*std::max_element(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

void Timeline::truncate(std::int64_t n) {
  if (n < 0 || n > iterations_) throw std::invalid_argument("Timeline::truncate: bad size");
  iterations_ = n;
  warmup_ = std::min(warmup_, n);
  data_.resize(static_cast<std::size_t>(n * n_events_));
}

Timeline Timeline::head(std::int64_t n) const {
  if (n < 0 || n > iterations_) throw std::invalid_argument("Timeline::head: bad size");
  Timeline t(names_, n, std::min(warmup_, n));
  t.planned_warmup_ = planned_warmup_;
  std::copy(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(n * n_events_), t.data_.begin());
  return t;
}

void Timeline::to_common(const ClockMap& map) {
  for (double& t : data_)
    if (!std::isnan(t)) t = map(t);
}

std::int64_t timeline_disorder(const Timeline& tl) {
  std::int64_t bad = 0;
  double prev = -INFINITY;
  for (std::int64_t it = 0; it < tl.iterations(); ++it)
    for (int e = 0; e < tl.events(); ++e) {
      const double t = tl.at(it, e);
      if (std::isnan(t)) continue;
      if (t < prev) ++bad;
      prev = t;
    }
  for (std::int64_t it = 0; it < tl.iterations(); ++it)
    if (std::isnan(tl.at(it, 0))) ++bad;
  return bad;
}

}  // namespace desync
