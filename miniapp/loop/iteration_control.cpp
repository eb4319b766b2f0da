#include "loop/iteration_control.hpp"

#include <algorithm>

#include "core/clock.hpp"
#include "core/stop_request.hpp"

namespace desync {

IterationControl::IterationControl(MPI_Comm comm, std::int64_t total, double progress_interval)
    : comm_(comm), total_(total), progress_(total, progress_interval), start_(now()), done_(total) {}

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
  }
  // About one second of this rank's iterations; the reduction takes the minimum over ranks.
  const double per_iteration = (now() - start_) / static_cast<double>(it + 1);
  const double second = per_iteration > 0 ? 1.0 / per_iteration : 1e9;
  const auto suggest = static_cast<std::int64_t>(std::clamp(second, static_cast<double>(min_interval), 1e9));
  send_[0] = stop_signal();
  send_[1] = -suggest;
  MPI_Iallreduce(send_, recv_, 2, MPI_INT64_T, MPI_MAX, comm_, &req_);
  pending_ = true;
  next_check_ = it + std::max<std::int64_t>(interval_, 1);
  return false;
}

void IterationControl::finish() {
  if (pending_) {
    MPI_Wait(&req_, MPI_STATUS_IGNORE);
    pending_ = false;
  }
}

}  // namespace desync
