#pragma once
// The one clock of the program: monotonic, seconds as double. Ranks' clocks differ by an offset
// that comm/clock_sync estimates.
#include <chrono>

namespace desync {

inline double now() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

}  // namespace desync
