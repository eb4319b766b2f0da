#pragma once
// Estimates each rank's clock offset to rank 0 by ping-pong: the sample with the smallest round
// trip bounds the error by half that round trip. Called before and after the measured loop (the
// two give the drift: record/clock_offset.hpp). Rank 0's own: offset 0, error 0, at 0.
#include <mpi.h>

#include "record/clock_offset.hpp"

namespace desync {

ClockOffset estimate_clock_offset(MPI_Comm comm, int rounds = 32);

}  // namespace desync
