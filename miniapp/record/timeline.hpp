#pragma once
// Per-rank timeline of one run: a timestamp per (iteration, event), preallocated before the loop
// so that recording in the hot loop is one store. Layout [iterations][events], row-major, which
// is one rank's slab of /timeline/events.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "record/clock_offset.hpp"

namespace desync {

class Timeline {
 public:
  Timeline(std::vector<std::string> event_names, std::int64_t iterations, std::int64_t warmup);

  // Stores the current local time for event `e` of iteration `it` (it counts warm-up too).
  void mark(std::int64_t it, int e) { data_[static_cast<std::size_t>(it * n_events_ + e)] = now(); }
  void set(std::int64_t it, int e, double t) { data_[static_cast<std::size_t>(it * n_events_ + e)] = t; }
  double at(std::int64_t it, int e) const { return data_[static_cast<std::size_t>(it * n_events_ + e)]; }

  std::int64_t iterations() const { return iterations_; }
  std::int64_t warmup() const { return warmup_; }  // rows that are warm-up (clipped by truncate, head)
  // The deck's number of row `row`: warm-up rows are -W..-1 for the W planned at construction,
  // also after truncate or head kept fewer rows than W (a run stopped or flushed in its warm-up).
  std::int64_t number(std::int64_t row) const { return row - planned_warmup_; }
  std::int64_t planned_warmup() const { return planned_warmup_; }
  int events() const { return n_events_; }
  const std::vector<std::string>& event_names() const { return names_; }
  int event_index(const std::string& name) const;  // -1 if absent
  // The median over rows [first, end) of each row's span, from its earliest to its latest
  // recorded event (an iteration's time, from the rank's own clock); NaN without such a row.
  double median_span(std::int64_t first, std::int64_t end) const;
  const std::vector<double>& data() const { return data_; }

  // Memory of a timeline of `iterations` rows at the largest event list (12 events): estimates.
  static double bytes_estimate(std::int64_t iterations) { return 12.0 * 8.0 * static_cast<double>(iterations); }

  // Keeps the first n iterations (a run stopped early); warm-up shrinks with it if needed.
  void truncate(std::int64_t n);
  // A copy of the first n iterations (a flush during the run), warm-up clipped likewise.
  Timeline head(std::int64_t n) const;

  // Converts local clock readings to the common time base (record/clock_offset.hpp). NaN stays NaN.
  void to_common(const ClockMap& map);

 private:
  std::vector<std::string> names_;
  int n_events_;
  std::int64_t iterations_;
  std::int64_t warmup_;
  std::int64_t planned_warmup_;
  std::vector<double> data_;
};

// Timestamps must increase within and across iterations, and every iteration has its first
// event: the number of violations (0 for a correct recording).
std::int64_t timeline_disorder(const Timeline& tl);

}  // namespace desync
