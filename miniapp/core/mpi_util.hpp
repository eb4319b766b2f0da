#pragma once
// Small MPI helpers used outside timed loops.
#include <mpi.h>

#include <string>

namespace desync {

inline void bcast_string(std::string& s, int root, MPI_Comm comm) {
  long long n = static_cast<long long>(s.size());
  MPI_Bcast(&n, 1, MPI_LONG_LONG, root, comm);
  s.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, root, comm);
}

inline int comm_rank(MPI_Comm comm);
inline int comm_size(MPI_Comm comm);

// Collective: the message of the lowest rank whose `mine` is not empty, on every rank; empty if
// every rank's is. How ranks agree on one report of a problem some of them found.
inline std::string first_message(const std::string& mine, MPI_Comm comm) {
  const int size = comm_size(comm);
  int first = mine.empty() ? size : comm_rank(comm);
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return {};
  std::string msg = mine;
  bcast_string(msg, first, comm);
  return msg;
}

inline int comm_rank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

inline int comm_size(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

}  // namespace desync
