// The micro-benchmarks' peak memory per rank: one send buffer of the largest size, receive room
// for a window of them ("bandwidth") or one, and the timeline.
#include <algorithm>

#include <fmt/format.h>

#include "workloads/pingpong/pingpong.hpp"
#include "record/timeline.hpp"

namespace desync {

MemoryEstimate pingpong_memory(const Config& cfg, int, int) {
  const PingpongConfig& c = cfg.params.get<PingpongConfig>();
  const double largest = static_cast<double>(*std::max_element(c.sizes.begin(), c.sizes.end()));
  const double window = c.mode == PingpongMode::bandwidth ? static_cast<double>(c.window) : 1.0;
  MemoryEstimate m;
  m.knobs = fmt::format("[pingpong] sizes (largest {} B), window = {}", static_cast<long long>(largest), c.window);
  m.add("send buffer", largest);
  m.add("receive buffer", largest * window);
  m.add("timeline", Timeline::bytes_estimate(static_cast<std::int64_t>(c.sizes.size()) * cfg.run.iterations));
  return m;
}

}  // namespace desync
