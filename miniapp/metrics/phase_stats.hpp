#pragma once
// Phase durations derived from the timeline events, their per-rank statistics over the measured
// iterations, and the over-ranks table of the final summary (docs/method.md, section 3).
//
// The rule is the same for every workload: an event named "<phase>_end" ends phase <phase>, which
// began at the latest earlier event of the same iteration that happened (events are stored in
// the order they are taken). A workload may add composite phases (e.g. exec = local + remote),
// and "iteration" spans from an iteration's first event to the next iteration's.
#include <mpi.h>

#include <limits>
#include <string>
#include <vector>

#include "record/phase_styles.hpp"
#include "record/timeline.hpp"

namespace desync {

struct PhaseLayout {
  std::vector<std::string> names;         // event phases, then composites, then "iteration"
  std::vector<int> end_event;             // per event phase: its "_end" event
  std::vector<std::vector<int>> parts;    // per composite: indices into names
  int index(const std::string& name) const;  // -1 if absent
};

PhaseLayout phase_layout(const std::vector<std::string>& event_names, const std::vector<CompositePhase>& composites = {});

struct MinMedMax {
  double min = 0.0, median = 0.0, max = 0.0;
};

// Duration of each phase in each measured iteration: [phase][iteration]; NaN where the phase's
// end event did not happen (a composite is NaN only if all its parts are).
std::vector<std::vector<double>> phase_durations(const Timeline& tl, const PhaseLayout& layout);

// The named phase's time summed over the measured iterations of phase_durations(), NaN skipped;
// 0 for a phase the layout does not have.
double phase_total(const std::vector<std::vector<double>>& durations, const PhaseLayout& layout, const std::string& name);

// Min / median / max ignoring NaN; all NaN if every value is NaN.
MinMedMax min_med_max(std::vector<double> values);

std::vector<MinMedMax> rank_phase_stats(const Timeline& tl, const PhaseLayout& layout);
// The same from phase_durations() the caller has already.
std::vector<MinMedMax> phase_stats(std::vector<std::vector<double>> durations);

struct OverRanks {
  MinMedMax stat;  // over ranks of each rank's median
  int argmin = -1, argmax = -1;
};

struct RunMetrics {
  PhaseLayout layout;
  std::vector<std::vector<MinMedMax>> all;  // [rank][phase], identical on all ranks
  std::vector<OverRanks> over_ranks;        // [phase]
  std::vector<double> bytes_per_iteration;  // [rank] memory traffic model of the work phase
  std::vector<double> bandwidth;            // [rank] bytes / median work-phase time (B/s)
  double total_time = 0.0;
  double aggregate_bandwidth = 0.0;
  double effective_bandwidth = 0.0;
};

// First event of the first measured iteration and last event of the last one (NaN: none).
struct MeasuredSpan {
  double first = std::numeric_limits<double>::quiet_NaN(), last = std::numeric_limits<double>::quiet_NaN();
};
MeasuredSpan measured_span(const Timeline& tl);

// The over-ranks metrics from every rank's statistics, without MPI (`desync simulate` holds all
// its virtual ranks): all[rank][phase], bytes_per_iteration[rank], the earliest first and the
// latest last event over ranks, and the number of measured iterations.
RunMetrics combine_metrics(const PhaseLayout& layout, const std::string& work_phase, std::vector<std::vector<MinMedMax>> all,
                           std::vector<double> bytes_per_iteration, const MeasuredSpan& span, std::int64_t measured);

// Collective: every rank's stats gathered, then combine_metrics. `tl` must already be on the
// common time base. `work_phase` names the phase whose median time turns bytes_per_iteration
// into a bandwidth ("compute", "exec").
RunMetrics compute_metrics(const Timeline& tl, const PhaseLayout& layout, const std::string& work_phase,
                           double bytes_per_iteration, MPI_Comm comm);

// Collective: the slowest rank's duration of the measured iterations, each rank on its own clock
// (first event of the first measured iteration to the latest event of the last one), so clock
// offsets cancel. Used for Gflop/s and P_D.
double measured_wall(const Timeline& tl, MPI_Comm comm);

}  // namespace desync
