#pragma once
// Per-iteration delays of one rank (one-off injections plus random noise), computed before the
// measured loop so the loop only reads one number per iteration.
#include <vector>

#include "config/config.hpp"

namespace desync {

// Index = iteration counted from the first warm-up iteration; value = seconds of busy work.
std::vector<double> delay_schedule(const Config& cfg, int rank);

// [[inject]] duration_iterations of this rank, indexed as delay_schedule: the delay of iteration i
// is multiples[i] times the rank's iteration time over the warm-up (Timeline::median_span),
// added once the warm-up is done (add_scaled_delays). Empty when the rank has none.
std::vector<double> delay_multiples(const Config& cfg, int rank);

// The longest delay one iteration may have, seconds ([[inject]] duration's bound).
inline constexpr double max_delay_seconds = 3600.0;

// delay[i] += multiples[i] * iteration_time for every i (multiples may be empty).
void add_scaled_delays(std::vector<double>& delay, const std::vector<double>& multiples, double iteration_time);

}  // namespace desync
