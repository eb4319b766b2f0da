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
  std::vector<std::pair<std::string, std::int64_t>> eager_cvars;  // (name, value >= 0) from MPI_T, this rank's
  // Variables whose value is a negative sentinel (MPICH: -1, "the device or provider decides at
  // run time"): named in the text, but no limit to check a declared one against.
  std::vector<std::pair<std::string, std::int64_t>> deferred_cvars;
  std::vector<std::string> environment;                           // NAME=value lines that set them, this rank's
  std::string text;  // rank 0's "name = value" lines (cvars, then "env NAME=value"), on every rank
};

// Every rank reads its own library state (MPI_T and the environment are local); what goes into
// the file (thread level, text) is rank 0's, broadcast so every rank writes the same. Collective.
MpiLibraryRecord probe_mpi_library(MPI_Comm comm);

// A warning when [comm] eager_limit (> 0) matches none of the eager limits the library reports;
// empty if it matches or the library reports none.
std::string eager_limit_mismatch(const MpiLibraryRecord& r, std::int64_t declared);

// The environment variable that sets an MPI_T control variable before MPI_Init: MPICH's cvars are
// named as their variables (MPIR_CVAR_...), Open MPI's MCA parameters take OMPI_MCA_.
std::string cvar_environment_name(const std::string& cvar);

// The MPI library's family from MPI_Get_library_version: "openmpi", "mpich" (MPICH and its
// derivatives: Intel MPI, Cray MPICH, MVAPICH2) or "other"; and the launcher option that binds
// each rank to a core, for warnings (Open MPI: --bind-to core; Hydra: -bind-to core).
std::string mpi_family();
std::string binding_hint();

}  // namespace desync
