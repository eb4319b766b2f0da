#pragma once
// The frame every workload's measured loop runs in (docs/method.md, section 6):
//   start          common start: the device is idle and every rank leaves a barrier together;
//   delay slot     the delay slot, where [[inject]] delays and [noise] act as core-bound busy
//                  work (marks delay_begin if the timeline has it, and delay_end, only when a
//                  delay happens: otherwise the events stay NaN and the phase does not exist);
//   sync           the global synchronization after the iteration, [comm] sync: none, an
//                  MPI_Barrier or a one-double MPI_Allreduce (marks sync_end);
//   stop agreement progress line, the stop-signal agreement and, when due, a flush of what ran
//                  (loop/iteration_control.hpp, loop/flush_hook.hpp);
//   finish         completes the agreement, keeps the iterations done on the timeline.
// The delays of every iteration are drawn before the loop (those given in iterations are scaled by
// the rank's warm-up iteration time once, before the first measured iteration), and the sync
// function is chosen when the loop is built: nothing is decided inside the loop.
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "config/config.hpp"
#include "loop/iteration_control.hpp"
#include "record/timeline.hpp"
#include "record/workload_result.hpp"

namespace desync {

class ExperimentLoop {
 public:
  // The run's loop: its rows are result.timeline, and a flush during the run ([record]
  // flush_seconds, loop/flush_hook.hpp) writes `result` as it stands. The timeline must have the
  // events delay_end and sync_end (delay_begin is optional).
  ExperimentLoop(const Config& cfg, MPI_Comm comm, WorkloadResult& result, SyncMode sync);
  // A loop whose rows are not the run's result (a paired run with a barrier): never flushed.
  ExperimentLoop(const Config& cfg, MPI_Comm comm, Timeline& tl, SyncMode sync);

  // The measured loop, written once: start(); then per iteration work(it), the delay slot,
  // after_delay(it) (what the workload does between its delay slot and the sync, e.g. an
  // exchange that follows the delay; nothing by default), sync(it) and the stop agreement;
  // finish(). A workload supplies the bodies and cannot forget the slot. Returns the stop signal
  // (0: all ran).
  struct Nothing {
    void operator()(std::int64_t) const {}
  };
  template <class Work, class AfterDelay = Nothing>
  int run(std::int64_t iterations, Work&& work, AfterDelay&& after_delay = {}) {
    start();
    for (std::int64_t it = 0; it < iterations; ++it)
      if (step(it, work, after_delay)) break;
    return finish();
  }

  // run() whose last iteration is the one the workload checks: reset() runs before it, after the
  // previous iteration's stop agreement and outside its phases (in the run's wall time), so that
  // a result computed the same every iteration is recomputed there from a poisoned start
  // (docs/method.md, section 7). The last iteration is peeled: nothing is tested per iteration.
  template <class Reset, class Work>
  int run_checked(std::int64_t iterations, Reset&& reset, Work&& work) {
    return run_checked(iterations, reset, work, work);
  }
  // The same with another body for the checked iteration: the tests' fault injection
  // (loop/fault_injection.hpp) runs it without the delivery the check depends on.
  template <class Reset, class Work, class Checked>
  int run_checked(std::int64_t iterations, Reset&& reset, Work&& work, Checked&& checked) {
    start();
    bool stop = false;
    for (std::int64_t it = 0; it + 1 < iterations && !stop; ++it) stop = step(it, work, Nothing{});
    if (!stop && iterations > 0) {
      reset();
      step(iterations - 1, checked, Nothing{});
    }
    return finish();
  }

  // The same loop cut into cells of per_cell iterations (it = cell * per_cell + i), for loops
  // with set-up between groups of iterations: message sizes and operations of the benchmarks,
  // a filter's blocks. begin_cell(cell) runs before a cell's first iteration (untimed set-up:
  // buffers, a barrier, warm-up, a block's start vector); end_cell(cell, complete) after its last
  // iteration done, complete false when the run stopped before the cell's last iteration
  // (nothing follows then; a stop after it leaves the cell complete, and nothing follows either).
  template <class BeginCell, class Work, class EndCell>
  int run_cells(std::int64_t cells, std::int64_t per_cell, BeginCell&& begin_cell, Work&& work, EndCell&& end_cell) {
    return run_cells_checked(cells, per_cell, begin_cell, [](std::int64_t) {}, work, work, end_cell);
  }
  // run_cells() whose cells each end with the iteration the workload checks, as run_checked():
  // reset_last(cell) runs before a cell's last iteration (after the previous one's stop
  // agreement, outside its phases), which runs `checked` (the tests' fault injection,
  // loop/fault_injection.hpp) or `work` again. For benchmarks that deliver the same data every
  // repetition: what the check reads was delivered by the last one. Peeled: nothing is tested
  // per iteration.
  template <class BeginCell, class ResetLast, class Work, class Checked, class EndCell>
  int run_cells_checked(std::int64_t cells, std::int64_t per_cell, BeginCell&& begin_cell, ResetLast&& reset_last, Work&& work,
                        Checked&& checked, EndCell&& end_cell) {
    start();
    bool stop = false;
    for (std::int64_t cell = 0; cell < cells && !stop; ++cell) {
      begin_cell(cell);
      for (std::int64_t i = 0; i + 1 < per_cell && !stop; ++i) stop = step(cell * per_cell + i, work, Nothing{});
      bool complete = !stop;  // a stop after the cell's last iteration leaves it complete
      if (!stop && per_cell > 0) {
        reset_last(cell);
        stop = step(cell * per_cell + per_cell - 1, checked, Nothing{});
      }
      end_cell(cell, complete);
    }
    return finish();
  }

  std::int64_t iterations_done() const { return control_.iterations_done(); }

  // [[inject]] duration_iterations: the iteration time this loop measured over its warm-up (NaN
  // before, or without such a delay), and, for a paired run (compare_barrier), the first run's
  // taken instead of its own: both runs get the same delays in seconds, so that the comparison
  // is between syncs, not between disturbances.
  double iteration_time() const { return t_iter_; }
  void use_iteration_time(double t_iter);

 private:
  // One iteration's frame; returns true if the run is to stop.
  template <class Work, class AfterDelay>
  bool step(std::int64_t it, Work& work, AfterDelay&& after_delay) {
    if (it == scale_at_) scale_delays();  // the first measured iteration, once (-1: no such delay)
    work(it);
    const double d = delay_[static_cast<std::size_t>(it)];
    if (d > 0.0) inject(it, d);
    after_delay(it);
    if (sync_due(sync_every_, warmup_, it)) sync_(*this, it);
    return control_.stop_after(it);
  }
  ExperimentLoop(const Config& cfg, MPI_Comm comm, Timeline& tl, SyncMode sync, const WorkloadResult* result);
  void start();
  // Returns the stop signal (0: every iteration ran); the timeline keeps the iterations done.
  int finish();
  void inject(std::int64_t it, double seconds);
  // [[inject]] duration_iterations: the rank's iteration time over the warm-up rows times the
  // multiples, added to the schedule before the first measured iteration.
  void scale_delays();
  static void sync_none(ExperimentLoop&, std::int64_t) {}
  static void sync_barrier(ExperimentLoop& l, std::int64_t it);
  static void sync_allreduce(ExperimentLoop& l, std::int64_t it);

  MPI_Comm comm_;
  Timeline& tl_;
  std::vector<double> delay_;
  std::vector<double> multiples_;  // inject/delay_schedule.hpp, delay_multiples
  std::int64_t scale_at_ = -1;     // the row where scale_delays() runs; -1: never
  double t_iter_ = std::numeric_limits<double>::quiet_NaN();
  int delay_begin_, delay_end_, sync_end_;
  void (*sync_)(ExperimentLoop&, std::int64_t) = sync_none;
  std::int64_t sync_every_ = 1, warmup_ = 0;  // [comm] sync_every: which iterations sync (sync_due)
  double token_ = 0.0;  // the allreduce's one double
  IterationControl control_;
};

}  // namespace desync
