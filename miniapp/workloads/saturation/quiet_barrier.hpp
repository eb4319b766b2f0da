#pragma once
// A barrier the waiting ranks sleep through (saturation sweep, STREAM table): a rank that
// streams next (or just streamed) waits in MPI_Wait; the others test every 100 us and sleep in
// between, so they neither take a share of the memory interface nor keep a core busy polling.
#include <mpi.h>

#include <chrono>
#include <thread>

namespace desync::saturation {

inline void quiet_barrier(MPI_Comm comm, bool streaming) {
  MPI_Request req;
  MPI_Ibarrier(comm, &req);
  if (streaming) {
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return;
  }
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace desync::saturation
