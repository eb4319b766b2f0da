#pragma once
// Event ids of one compute-communicate iteration, in the order they are taken.
// Their names form the event_names attribute of /timeline/events (docs/output.md).
#include <string>
#include <vector>

namespace desync {

namespace ev {
enum : int { compute_begin, compute_end, delay_begin, delay_end, post_end, wait_end, sync_end, count };
}

inline std::vector<std::string> iteration_event_names() {
  return {"compute_begin", "compute_end", "delay_begin", "delay_end", "post_end", "wait_end", "sync_end"};
}

}  // namespace desync
