#pragma once
// The communicators an experiment's exchanges spread their messages over (papers.md E: N_DUP):
// the run's communicator and n - 1 duplicates of it, made once, collectively, before the loop;
// and, with [comm] record_messages, the message log every exchange of the run records into.
#include <mpi.h>

#include <memory>
#include <vector>

#include "comm/gpu_aware.hpp"
#include "config/config.hpp"
#include "record/message_log.hpp"

namespace desync {

class Communicators {
 public:
  Communicators(MPI_Comm comm, int n);                  // collective over comm; no message log, direct
  Communicators(MPI_Comm comm, const CommConfig& opt);  // collective; N_DUP, the log, gpu_aware_mpi from [comm]
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  MPI_Comm operator[](int k) const { return comms_[static_cast<std::size_t>(k)]; }
  int size() const { return static_cast<int>(comms_.size()); }
  MPI_Comm base() const { return comms_[0]; }
  // The message log, null unless [comm] record_messages; the workload hands it to its result.
  const std::shared_ptr<MessageLog>& log() const { return log_; }
  // [comm] gpu_aware_mpi as resolved for this run: whether exchanges of device buffers stage them.
  const GpuAwareChoice& gpu_aware() const { return gpu_aware_; }

 private:
  std::vector<MPI_Comm> comms_;
  std::shared_ptr<MessageLog> log_;
  GpuAwareChoice gpu_aware_;
};

}  // namespace desync
