#pragma once
// What a workload hands back to the driver: its timeline, the traffic model of one compute phase,
// its local verification outcome and its communication pattern.
#include <cstdint>
#include <string>
#include <vector>

#include "comm/neighbour_partners.hpp"
#include "record/timeline.hpp"

namespace desync {

struct WorkloadResult {
  explicit WorkloadResult(Timeline t) : timeline(std::move(t)) {}

  Timeline timeline;
  double bytes_per_sweep = 0.0;
  std::int64_t elements_checked = 0;
  std::int64_t element_errors = 0;
  std::int64_t messages_checked = 0;
  std::int64_t message_errors = 0;
  Partners partners;
};

}  // namespace desync
