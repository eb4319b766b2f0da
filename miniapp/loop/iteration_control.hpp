#pragma once
// The end of every iteration of every workload's measured loop: rank 0's progress line, and the
// agreement on stopping early after a stop request (core/stop_request.hpp).
//
// Stopping needs every rank to leave the loop after the same iteration, without adding a blocking
// collective to the measured loop. Agreement points are iterations c_0 = 0 < c_1 < ...; at c_k
// each rank completes the nonblocking reduction started at c_{k-1} (long done, unless this rank
// is a whole interval ahead of another), stops if any rank had seen a signal, and otherwise
// starts the next reduction with its own signal flag and its own suggestion for the next
// interval. Intervals are the minimum over ranks of about one second's worth of iterations, at
// least min_interval, so a stop request ends the loop within about two seconds (docs/decks.md,
// "Stopping a run early").
//
// The same reduction carries "a flush is due" ([record] flush_seconds, loop/flush_hook.hpp): when
// any rank's clock says the hook's interval has passed, every rank calls the flush hook at the
// next agreement point, after the same iteration (docs/method.md, "Results on disk while a run
// runs").
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "loop/flush_hook.hpp"
#include "record/workload_result.hpp"
#include "report/progress.hpp"

namespace desync {

class IterationControl {
 public:
  // result: the run's result a flush writes (null: this loop never flushes; also when no hook is
  // installed or comm is not the hook's whole communicator).
  IterationControl(MPI_Comm comm, std::int64_t total, double progress_interval, const WorkloadResult* result = nullptr);
  ~IterationControl();
  IterationControl(const IterationControl&) = delete;
  IterationControl& operator=(const IterationControl&) = delete;

  // Call after iteration `it` (0-based, warm-up included) on every rank. True: leave the loop now;
  // `it` was the last iteration (the same on every rank).
  bool stop_after(std::int64_t it) {
    progress_.tick(it + 1, flush_time_);
    if (it != next_check_) return false;
    return agreement_point(it);
  }

  // After the loop: completes the last reduction (every rank started the same ones).
  void finish();

  std::int64_t iterations_done() const { return done_; }  // set once the loop is left via stop_after or finish
  int signal() const { return signal_; }                 // the stop signal agreed on, 0 if none

  static constexpr std::int64_t min_interval = 16;

 private:
  bool agreement_point(std::int64_t it);
  void flush(std::int64_t it);

  MPI_Comm comm_;
  std::int64_t total_;
  Progress progress_;
  double start_;
  std::int64_t next_check_ = 0;
  std::int64_t interval_ = 1;
  bool pending_ = false;
  // The reduction's request and buffers, on the heap: a reduction still pending when the loop is
  // left by an exception can be neither completed (other ranks may never start theirs) nor freed
  // (MPI forbids MPI_Request_free on a nonblocking collective), so the destructor leaves it, and
  // the buffers MPI may still write, to the MPI_Abort that follows.
  struct Reduction {
    MPI_Request req = MPI_REQUEST_NULL;
    std::int64_t send[3] = {0, 0, 0}, recv[3] = {0, 0, 0};  // stop signal, -next interval, flush due
  };
  std::unique_ptr<Reduction> reduction_ = std::make_unique<Reduction>();
  FlushHook* hook_ = nullptr;  // null: no flushes
  const WorkloadResult* result_ = nullptr;
  double flush_interval_ = 0.0, last_flush_ = 0.0, flush_time_ = 0.0;
  std::int64_t done_;
  int signal_ = 0;
};

}  // namespace desync
