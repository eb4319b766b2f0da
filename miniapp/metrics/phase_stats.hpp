#pragma once
// Phase durations derived from the timeline events, their per-rank statistics over the measured
// iterations, and the over-ranks table of the final summary (docs/method.md, "Phases").
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "record/timeline.hpp"

namespace desync {

namespace phase {
enum : int { compute, delay, post, wait, barrier, iteration, count };
}
std::vector<std::string> phase_names();

struct MinMedMax {
  double min = 0.0, median = 0.0, max = 0.0;
};

// Duration of each phase in each measured iteration: [phase][iteration]. A barrier that did not
// happen is NaN, a delay that did not happen is 0.
std::vector<std::vector<double>> phase_durations(const Timeline& tl);

// Min / median / max ignoring NaN; all NaN if every value is NaN.
MinMedMax min_med_max(std::vector<double> values);

// This rank's statistics per phase.
std::vector<MinMedMax> rank_phase_stats(const Timeline& tl);

struct OverRanks {
  MinMedMax stat;          // over ranks of each rank's median
  int argmin = -1, argmax = -1;
};

struct RunMetrics {
  std::vector<MinMedMax> local;                 // [phase] of this rank
  std::vector<std::vector<MinMedMax>> all;      // [rank][phase], identical on all ranks
  std::vector<OverRanks> over_ranks;            // [phase]
  std::vector<double> bytes_per_sweep;          // [rank]
  std::vector<double> bandwidth;                // [rank] B/s
  double total_time = 0.0;
  double aggregate_bandwidth = 0.0;
  double effective_bandwidth = 0.0;
};

// Collective. `tl` must already be on the common time base.
RunMetrics compute_metrics(const Timeline& tl, double bytes_per_sweep, MPI_Comm comm);

}  // namespace desync
