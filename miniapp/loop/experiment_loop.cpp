#include "loop/experiment_loop.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <stdexcept>

#include "core/mpi_util.hpp"
#include "inject/busy_work.hpp"
#include "inject/delay_schedule.hpp"

namespace desync {

ExperimentLoop::ExperimentLoop(const Config& cfg, MPI_Comm comm, WorkloadResult& result, SyncMode sync)
    : ExperimentLoop(cfg, comm, result.timeline, sync, &result) {}

ExperimentLoop::ExperimentLoop(const Config& cfg, MPI_Comm comm, Timeline& tl, SyncMode sync)
    : ExperimentLoop(cfg, comm, tl, sync, nullptr) {}

ExperimentLoop::ExperimentLoop(const Config& cfg, MPI_Comm comm, Timeline& tl, SyncMode sync, const WorkloadResult* result)
    : comm_(comm),
      tl_(tl),
      delay_(delay_schedule(cfg, comm_rank(comm))),
      multiples_(delay_multiples(cfg, comm_rank(comm))),
      delay_begin_(tl.event_index("delay_begin")),
      delay_end_(tl.event_index("delay_end")),
      sync_end_(tl.event_index("sync_end")),
      control_(comm, tl.iterations(), cfg.run.progress_interval, result) {
  if (delay_end_ < 0 || sync_end_ < 0) throw std::logic_error("ExperimentLoop: the timeline needs delay_end and sync_end");
  // The schedule covers [run] warmup + iterations, which is the timeline's length for every
  // workload (a module's own steps, WorkloadDeck::steps, are resolved at load).
  delay_.resize(static_cast<std::size_t>(tl.iterations()), 0.0);
  sync_every_ = cfg.comm.sync_every;
  warmup_ = tl.warmup();
  if (!multiples_.empty()) {
    if (warmup_ < 1 || warmup_ >= tl.iterations())
      throw std::logic_error("ExperimentLoop: a delay in iterations needs warm-up rows and measured rows (the deck loader checks)");
    scale_at_ = warmup_;
  }
  switch (sync) {
    case SyncMode::none: sync_ = sync_none; break;
    case SyncMode::barrier: sync_ = sync_barrier; break;
    case SyncMode::allreduce: sync_ = sync_allreduce; break;
  }
}

void ExperimentLoop::start() {
  Kokkos::fence();
  MPI_Barrier(comm_);  // common start; nothing collective inside the loop but the experiment's sync
}

void ExperimentLoop::inject(std::int64_t it, double seconds) {
  if (delay_begin_ >= 0) tl_.mark(it, delay_begin_);
  busy_divide(seconds);
  tl_.mark(it, delay_end_);
}

void ExperimentLoop::scale_delays() { use_iteration_time(tl_.median_span(0, warmup_)); }

void ExperimentLoop::use_iteration_time(double t_iter) {
  if (multiples_.empty() || scale_at_ < 0) return;  // no such delay, or already scaled
  if (!(t_iter > 0.0))
    throw std::runtime_error("[[inject]] duration_iterations: the warm-up recorded no iteration with a duration on this "
                             "rank; its iteration time is unknown");
  add_scaled_delays(delay_, multiples_, t_iter);
  for (double d : delay_)
    if (d > max_delay_seconds)
      throw std::runtime_error(fmt::format("[[inject]] duration_iterations: a delay of {:.6g} s ({:.6g} s per iteration "
                                           "on this rank), more than the {} s a delay may last; give fewer iterations",
                                           d, t_iter, max_delay_seconds));
  t_iter_ = t_iter;
  scale_at_ = -1;
}

void ExperimentLoop::sync_barrier(ExperimentLoop& l, std::int64_t it) {
  MPI_Barrier(l.comm_);
  l.tl_.mark(it, l.sync_end_);
}

void ExperimentLoop::sync_allreduce(ExperimentLoop& l, std::int64_t it) {
  // The seed study's global synchronization: a reduction of one double (its value is irrelevant).
  double in = l.token_;
  MPI_Allreduce(&in, &l.token_, 1, MPI_DOUBLE, MPI_SUM, l.comm_);
  l.tl_.mark(it, l.sync_end_);
}

int ExperimentLoop::finish() {
  control_.finish();
  tl_.truncate(control_.iterations_done());
  return control_.signal();
}

}  // namespace desync
