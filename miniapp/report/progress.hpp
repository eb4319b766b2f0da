#pragma once
// Rank 0's progress line on long runs, at most once per interval. Other ranks do nothing, and
// nothing here communicates, so calling it inside the measured loop does not synchronize ranks.
#include <algorithm>
#include <cstdint>

#include "core/clock.hpp"
#include "core/log.hpp"

namespace desync {

class Progress {
 public:
  // Off (interval 0) on every rank but 0, decided here: tick() runs every iteration.
  Progress(std::int64_t total, double interval)
      : total_(total), interval_(log::is_root() ? interval : 0.0), start_(now()), last_(start_) {}

  // Seconds left at the rate of the iterations so far: `elapsed` wall seconds, `paused` of them
  // outside the iterations, a share `frac` of them done.
  static double remaining(double elapsed, double paused, double frac) {
    return frac > 0 ? std::max(elapsed - paused, 0.0) * (1.0 - frac) / frac : 0.0;
  }

  // paused: seconds spent outside the iterations so far (flushes of OUT.partial), left out of the
  // rate the estimate of the time left uses (the elapsed time printed is the wall time).
  void tick(std::int64_t done, double paused = 0.0) {
    if (interval_ <= 0.0) return;
    const double t = now();
    if (t - last_ < interval_) return;
    last_ = t;
    const double frac = static_cast<double>(done) / static_cast<double>(total_);
    const double eta = remaining(t - start_, paused, frac);
    log::info("  iteration {}/{} ({:.0f}%), {:.1f} s elapsed, ~{:.0f} s left (rank 0)\n", done, total_,
              100.0 * frac, t - start_, eta);
  }

 private:
  std::int64_t total_;
  double interval_;
  double start_, last_;
};

}  // namespace desync
