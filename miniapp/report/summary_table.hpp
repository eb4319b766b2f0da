#pragma once
// The final text table rank 0 prints after a run.
#include <string>

#include "metrics/phase_stats.hpp"

namespace desync {

std::string summary_table(const RunMetrics& m, std::int64_t iterations, const std::string& verification,
                          const std::string& output);

}  // namespace desync
