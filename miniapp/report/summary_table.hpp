#pragma once
// The final text rank 0 prints after a run: per-phase times, then the run's metrics in a table of
// their own (value and unit in separate columns), notes, the verdict and the output file.
#include <string>
#include <vector>

#include "metrics/phase_stats.hpp"
#include "record/workload_result.hpp"

namespace desync {

std::string summary_table(const RunMetrics& m, const std::vector<NamedValue>& extra, std::int64_t iterations,
                          const std::string& verification, const std::string& output, const std::string& notes);

// "0.812 ms", "12.3 s", "45.0 us": a duration with 3-4 significant digits whatever its size.
std::string format_seconds(double s);

// A note for the bandwidth lines when they are not memory bandwidths: the working set of the
// ranks of a node (their per-iteration traffic) fits in its last-level caches, or ranks
// time-share cores. Empty if neither.
std::string bandwidth_note(double node_bytes_per_iteration, double node_llc_bytes, bool oversubscribed);

}  // namespace desync
