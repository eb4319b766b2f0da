#include "loop/iteration_control.hpp"

#include <algorithm>

#include "core/clock.hpp"
#include "core/log.hpp"
#include "core/stop_request.hpp"

namespace desync {

IterationControl::IterationControl(MPI_Comm comm, std::int64_t total, double progress_interval, const WorkloadResult* result)
    : comm_(comm), total_(total), progress_(total, progress_interval), start_(now()), done_(total) {
  FlushHook* hook = installed_flush_hook();
  if (hook == nullptr || result == nullptr) return;
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(comm, hook->comm(), &same);
  // Collective in the flush's communicator only when this loop runs on all of it ([placement]
  // active_ppn parks ranks outside the loop's communicator: their run writes at the end only).
  if (same != MPI_IDENT && same != MPI_CONGRUENT) {
    log::info("[record] flush_seconds: ranks parked outside the loop ([placement] active_ppn) cannot join a flush; "
              "this run writes its file at the end only\n");
    return;
  }
  hook_ = hook;
  result_ = result;
  flush_interval_ = hook->first_interval();
  last_flush_ = start_;
}

IterationControl::~IterationControl() {
  // Only reached with a pending reduction if the loop was left by an exception: left pending,
  // with its buffers (a deliberate leak before MPI_Abort; see the header).
  if (pending_) static_cast<void>(reduction_.release());
}

bool IterationControl::agreement_point(std::int64_t it) {
  if (pending_) {
    MPI_Wait(&reduction_->req, MPI_STATUS_IGNORE);
    pending_ = false;
    if (reduction_->recv[0] > 0) {
      signal_ = static_cast<int>(reduction_->recv[0]);
      done_ = it + 1;
      return true;
    }
    interval_ = -reduction_->recv[1];
    if (reduction_->recv[2] > 0) flush(it);
  }
  // About one second of this rank's iterations (flushes not counted); the reduction takes the
  // minimum over ranks.
  const double t = now();
  const double per_iteration = (t - start_ - flush_time_) / static_cast<double>(it + 1);
  const double second = per_iteration > 0 ? 1.0 / per_iteration : 1e9;
  const auto suggest = static_cast<std::int64_t>(std::clamp(second, static_cast<double>(min_interval), 1e9));
  reduction_->send[0] = stop_signal();
  reduction_->send[1] = -suggest;
  reduction_->send[2] = hook_ != nullptr && t - last_flush_ >= flush_interval_ ? 1 : 0;
  MPI_Iallreduce(reduction_->send, reduction_->recv, 3, MPI_INT64_T, MPI_MAX, comm_, &reduction_->req);
  pending_ = true;
  next_check_ = it + std::max<std::int64_t>(interval_, 1);
  return false;
}

void IterationControl::flush(std::int64_t it) {
  const double took = hook_->flush(*result_, it + 1);
  flush_time_ += took;
  last_flush_ = now();
  flush_interval_ = hook_->next_interval(took);
}

void IterationControl::finish() {
  if (pending_) {
    MPI_Wait(&reduction_->req, MPI_STATUS_IGNORE);
    pending_ = false;
  }
}

}  // namespace desync
