#pragma once
// Who talks to whom in the bulk-synchronous micro-benchmarks: for each offset d, rank r sends to
// r+d and receives from r-d. Open boundaries drop partners outside [0, P); periodic ones wrap.
#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {

struct Partners {
  std::vector<int> send_to;    // per offset, -1 if skipped
  std::vector<int> recv_from;  // per offset, -1 if skipped
};

Partners neighbour_partners(int rank, int size, const std::vector<std::int64_t>& offsets,
                            Boundary boundary);

}  // namespace desync
