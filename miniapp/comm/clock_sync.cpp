#include "comm/clock_sync.hpp"

#include <limits>

#include "comm/channels.hpp"
#include "core/clock.hpp"

namespace desync {

ClockOffset estimate_clock_offset(MPI_Comm comm, int rounds) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ClockOffset result;
  const int tag = mpi_tag(Channel::clock, 0);  // before and after the workload, on its own channel
  // Rank 0 serves every other rank in turn; the other rank originates each exchange, so the
  // sample t1 (rank 0's clock) sits between the partner's t0 and t2.
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) {
      for (int i = 0; i < rounds; ++i) {
        double dummy = 0.0;
        MPI_Recv(&dummy, 1, MPI_DOUBLE, peer, tag, comm, MPI_STATUS_IGNORE);
        const double t1 = now();
        MPI_Send(&t1, 1, MPI_DOUBLE, peer, tag, comm);
      }
    } else if (rank == peer) {
      double best_rtt = std::numeric_limits<double>::max();
      for (int i = 0; i < rounds; ++i) {
        const double t0 = now();
        MPI_Send(&t0, 1, MPI_DOUBLE, 0, tag, comm);
        double t1 = 0.0;
        MPI_Recv(&t1, 1, MPI_DOUBLE, 0, tag, comm, MPI_STATUS_IGNORE);
        const double t2 = now();
        if (t2 - t0 < best_rtt) {
          best_rtt = t2 - t0;
          // From differences of the readings (exact on one clock), not from their sum: 0.5 (t0 + t2)
          // rounds to the last bit of a reading of about 1e7 s, which would show as a drift.
          const double half = 0.5 * (t2 - t0);
          result.at = t0 + half;
          result.offset = (t0 - t1) + half;
          result.error = half;
        }
      }
    }
  }
  return result;
}

}  // namespace desync
