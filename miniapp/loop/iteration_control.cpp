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
  // Only reached with a pending request if the loop was left by an exception; the request
  // cannot be completed safely then (other ranks may never post theirs).
  if (pending_) MPI_Request_free(&req_);
}

bool IterationControl::agreement_point(std::int64_t it) {
  if (pending_) {
    MPI_Wait(&req_, MPI_STATUS_IGNORE);
    pending_ = false;
    if (recv_[0] > 0) {
      signal_ = static_cast<int>(recv_[0]);
      done_ = it + 1;
      return true;
    }
    interval_ = -recv_[1];
    if (recv_[2] > 0) flush(it);
  }
  // About one second of this rank's iterations (flushes not counted); the reduction takes the
  // minimum over ranks.
  const double t = now();
  const double per_iteration = (t - start_ - flush_time_) / static_cast<double>(it + 1);
  const double second = per_iteration > 0 ? 1.0 / per_iteration : 1e9;
  const auto suggest = static_cast<std::int64_t>(std::clamp(second, static_cast<double>(min_interval), 1e9));
  send_[0] = stop_signal();
  send_[1] = -suggest;
  send_[2] = hook_ != nullptr && t - last_flush_ >= flush_interval_ ? 1 : 0;
  MPI_Iallreduce(send_, recv_, 3, MPI_INT64_T, MPI_MAX, comm_, &req_);
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
    MPI_Wait(&req_, MPI_STATUS_IGNORE);
    pending_ = false;
  }
}

}  // namespace desync
