#pragma once
// `desync info`: what this binary and machine are (Kokkos, MPI, hwloc topology).
#include <mpi.h>

#include <string>

namespace desync {

std::string info_text(MPI_Comm comm);

}  // namespace desync
