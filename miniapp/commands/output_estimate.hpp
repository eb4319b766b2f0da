#pragma once
// The size of the result file a deck will write (docs/decks.md, "Output size"): what the free-space
// preflight of `desync run` requires and `desync check` prints. Built from what the deck
// determines (timeline rows after [record] window/stride, events per row, [comm] record_messages)
// and what the workload module declares (workload/output_shape.hpp), plus HDF5's metadata per
// object, measured on real files (docs/method.md, section 32).
#include <string>

#include "config/config.hpp"
#include "core/memory.hpp"

namespace desync {

// Bytes of the file by part: "timeline", "messages", "collectives", "per-rank rows", "texts",
// "metadata" (parts that are 0 are left out of describe()).
struct OutputEstimate : MemoryEstimate {};

// The file of a complete run of cfg on `ranks` ranks (at least 1).
OutputEstimate estimate_output(const Config& cfg, int ranks);

// For `desync check`: "# output estimate on P rank(s): ..." (ranks as memory_summary resolves them).
std::string output_summary(const Config& cfg, int ranks);

}  // namespace desync
