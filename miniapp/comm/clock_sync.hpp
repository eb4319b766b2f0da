#pragma once
// Estimates each rank's clock offset to rank 0 by ping-pong: the sample with the smallest round
// trip bounds the error by half that round trip. Called once before the measured loop.
#include <mpi.h>

namespace desync {

struct ClockOffset {
  double offset = 0.0;  // local clock minus rank 0's clock (s)
  double error = 0.0;   // half the best round trip (s)
};

ClockOffset estimate_clock_offset(MPI_Comm comm, int rounds = 32);

}  // namespace desync
