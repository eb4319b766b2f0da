#pragma once
// Results on disk while a run runs ([record] flush_seconds; docs/method.md, "Results on disk while
// a run runs"). The driver installs a hook before the workload runs; the experiment loop calls it
// at a stop-agreement point when the ranks have agreed a flush is due, with the iterations every
// rank has completed. The loop layer knows no file: the hook (commands/run_flush.cpp) writes.
//
// A flush is collective over the run's communicator, so only a loop over the whole run
// communicator flushes (a loop of the active ranks of [placement] active_ppn does not: its parked
// ranks sleep outside it) and only a loop whose rows are the run's result (a paired run with a
// barrier keeps its rows elsewhere).
#include <mpi.h>

#include <cstdint>

#include "record/workload_result.hpp"

namespace desync {

class FlushHook {
 public:
  virtual ~FlushHook() = default;
  // Collective over comm(): writes what `result` holds of its first `iterations_done` timeline
  // rows. Returns the seconds it took (the same on every rank).
  virtual double flush(const WorkloadResult& result, std::int64_t iterations_done) = 0;
  virtual MPI_Comm comm() const = 0;
  // Seconds from the start to the first flush, and from a flush that took `took` seconds to the
  // next (> 0).
  virtual double first_interval() const = 0;
  virtual double next_interval(double took) const = 0;
};

// The hook of the current run (null: none; `desync run` installs one when flush_seconds > 0).
void install_flush_hook(FlushHook* hook);
FlushHook* installed_flush_hook();

}  // namespace desync
