#pragma once
// Per-iteration delays of one rank (one-off injections plus random noise), computed before the
// measured loop so the loop only reads one number per iteration.
#include <vector>

#include "config/config.hpp"

namespace desync {

// Index = iteration counted from the first warm-up iteration; value = seconds of busy work.
std::vector<double> delay_schedule(const Config& cfg, int rank);

}  // namespace desync
