#pragma once
// The communicators an experiment's exchanges spread their messages over (papers.md E: N_DUP):
// the run's communicator and n - 1 duplicates of it, made once, collectively, before the loop.
#include <mpi.h>

#include <vector>

namespace desync {

class Communicators {
 public:
  Communicators(MPI_Comm comm, int n);  // collective over comm
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  MPI_Comm operator[](int k) const { return comms_[static_cast<std::size_t>(k)]; }
  int size() const { return static_cast<int>(comms_.size()); }
  MPI_Comm base() const { return comms_[0]; }

 private:
  std::vector<MPI_Comm> comms_;
};

}  // namespace desync
