#pragma once
// Estimates each rank's clock offset to rank 0 by ping-pong: the sample with the smallest round
// trip bounds the error by half that round trip. Called once before the measured loop.
#include <mpi.h>

#include "record/clock_offset.hpp"

namespace desync {

ClockOffset estimate_clock_offset(MPI_Comm comm, int rounds = 32);

}  // namespace desync
