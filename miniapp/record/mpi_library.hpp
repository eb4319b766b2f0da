#pragma once
// What the MPI library does with messages, for the record (docs/output.md, /provenance): the
// thread level it provided, and the eager / rendezvous thresholds in force, read through the MPI
// tool information interface (MPI_T control variables whose names mention eager or rendezvous:
// Open MPI's btl_*_eager_limit, btl_*_rndv_eager_limit, pml_*; MPICH's MPIR_CVAR_*EAGER*), plus
// the environment variables that set them (OMPI_MCA_*eager*/*rndv*, UCX_RNDV_THRESH,
// I_MPI_EAGER_THRESHOLD, MPIR_CVAR_*EAGER*).
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace desync {

struct MpiLibraryRecord {
  std::string thread_level;  // "MPI_THREAD_FUNNELED", ...; rank 0's, on every rank
  std::vector<std::pair<std::string, std::int64_t>> eager_cvars;  // (name, value) from MPI_T, this rank's
  std::vector<std::string> environment;                           // NAME=value lines that set them, this rank's
  std::string text;  // rank 0's "name = value" lines (cvars, then "env NAME=value"), on every rank
};

// Every rank reads its own library state (MPI_T and the environment are local); what goes into
// the file (thread level, text) is rank 0's, broadcast so every rank writes the same. Collective.
MpiLibraryRecord probe_mpi_library(MPI_Comm comm);

// A warning when [comm] eager_limit (> 0) matches none of the eager limits the library reports;
// empty if it matches or the library reports none.
std::string eager_limit_mismatch(const MpiLibraryRecord& r, std::int64_t declared);

}  // namespace desync
