// The toys' peak memory per rank: every message it sends and receives, each in its own slot,
// and the timeline.
#include <fmt/format.h>

#include "record/timeline.hpp"
#include "workloads/toy/toy.hpp"

namespace desync {

MemoryEstimate toy_memory(const Config& cfg, int rank, int size) {
  const ToyConfig& c = cfg.params.get<ToyConfig>();
  const int g = toy_degree(c, size);
  double send = 0, recv = 0;
  for (int j = 1; j <= g; ++j)
    for (int k = 0; k < static_cast<int>(c.messages); ++k) {
      send += static_cast<double>(toy_message_bytes(c, cfg.run.seed, rank, (rank + j) % size, k));
      recv += static_cast<double>(toy_message_bytes(c, cfg.run.seed, (rank - j % size + size) % size, rank, k));
    }
  MemoryEstimate m;
  m.knobs = fmt::format("[toy] max_bytes = {}, degree = {}, messages = {}", c.max_bytes, c.degree, c.messages);
  m.add("send buffer", send);
  m.add("receive buffer", recv);
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
