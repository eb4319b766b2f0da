#include "inject/busy_work.hpp"

#include "core/clock.hpp"

namespace desync {

double busy_divide(double seconds) {
  const double t0 = now();
  volatile double sink = 0.0;
  double x = 1.0e300;
  double t = t0;
  while (t - t0 < seconds) {
    for (int i = 0; i < 512; ++i) x = x / 1.0000001;
    if (x < 1.0e-300) x = 1.0e300;
    t = now();
  }
  sink = x;
  (void)sink;
  return t - t0;
}

}  // namespace desync
