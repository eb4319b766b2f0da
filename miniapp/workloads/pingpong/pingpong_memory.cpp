// The micro-benchmarks' peak memory per rank: one send buffer of the largest size, receive room
// for a window of them ("bandwidth": on the receiving rank of a pair only) or one, and the timeline.
#include <algorithm>

#include <fmt/format.h>

#include "workloads/pingpong/pingpong.hpp"
#include "record/timeline.hpp"

namespace desync {

MemoryEstimate pingpong_memory(const Config& cfg, int rank, int size) {
  const PingpongConfig& c = cfg.params.get<PingpongConfig>();
  const double largest = static_cast<double>(*std::max_element(c.sizes.begin(), c.sizes.end()));
  const bool bw = c.mode == PingpongMode::bandwidth;
  const double window = bw ? static_cast<double>(c.window) : 1.0;
  const bool sender = pingpong_role(rank, size, pingpong_pairs(c, size)).first;
  MemoryEstimate m;
  m.knobs = fmt::format("[pingpong] sizes (largest {} B), window = {}", static_cast<long long>(largest), c.window);
  m.add("send buffer", largest);
  m.add("receive buffer", bw && sender ? 0.0 : largest * window);
  m.add("timeline", Timeline::bytes_estimate(static_cast<std::int64_t>(c.sizes.size()) * cfg.run.iterations));
  return m;
}

}  // namespace desync
