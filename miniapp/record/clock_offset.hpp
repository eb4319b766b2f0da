#pragma once
// A rank's clock against rank 0's, as comm/clock_sync.hpp estimates it before and after the
// measured loop and the output file records it (/topology), and the map of its timestamps to the
// common time base (docs/method.md, section 1).
#include <cmath>
#include <limits>

namespace desync {

struct ClockOffset {
  double offset = 0.0;  // local clock minus rank 0's clock (s)
  double error = 0.0;   // half the best round trip (s)
  double at = 0.0;      // when, on the local clock: the middle of the kept round trip (s)
};

// The rank's clock over the run: the offsets before and after the measured loop and the drift
// between them (d offset / d t, s/s). The drift is applied only where the two offsets differ by
// more than their errors together, so that clocks that do not drift measurably (all ranks of a
// node share one) keep the start offset alone; a run still running (a flush) has no end yet.
struct RankClock {
  ClockOffset start;
  ClockOffset end{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
                  std::numeric_limits<double>::quiet_NaN()};
  double drift = 0.0;
  // An offset computed from clock readings of about 1e7 s (steady_clock counts from boot) can sit
  // a few of their last bits (2e-9 s each) outside its error bound: not a drift.
  static constexpr double rounding = 1e-8;

  static RankClock exact() { return {ClockOffset{}, ClockOffset{}, 0.0}; }  // a simulated rank's clock
  static RankClock of(const ClockOffset& start, const ClockOffset& end) {
    RankClock c{start, end, 0.0};
    const double span = end.at - start.at;
    if (span > 0.0 && std::fabs(end.offset - start.offset) > start.error + end.error + rounding)
      c.drift = (end.offset - start.offset) / span;
    return c;
  }
};

// t_common = t - (start.offset + drift (t - start.at)) - origin, computed from t - start.at so
// that the large absolute clock values (seconds since boot) cancel before the drift multiplies.
struct ClockMap {
  double at = 0.0, drift = 0.0, base = 0.0;  // base = start.at - start.offset - origin

  ClockMap(const RankClock& c, double origin)
      : at(c.start.at), drift(c.drift), base(c.start.at - c.start.offset - origin) {}
  double operator()(double t) const {
    const double u = t - at;
    return u - drift * u + base;
  }
};

}  // namespace desync
