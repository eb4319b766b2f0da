#include "workloads/saturation/domain_sizes.hpp"

#include <algorithm>
#include <cmath>

#include "record/memory_domain.hpp"

namespace desync::saturation {

int domain_cores() { return this_process_memory_domain().cores; }

double node_llc_bytes() { return desync::node_llc_bytes(); }

std::int64_t default_sweep_elements(double llc_bytes) {
  return std::max<std::int64_t>(std::int64_t{1} << 24, static_cast<std::int64_t>(std::ceil(4.0 * llc_bytes / 8.0)));
}

std::int64_t default_stream_elements(double llc_bytes, int ranks_on_node) {
  const double ranks = std::max(1, ranks_on_node);
  return std::max<std::int64_t>(std::int64_t{1} << 22, static_cast<std::int64_t>(std::ceil(4.0 * llc_bytes / (8.0 * ranks))));
}

}  // namespace desync::saturation
