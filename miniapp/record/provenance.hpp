#pragma once
// What produced a result file: versions, build, MPI library, time, command line, environment.
// Collected on rank 0 and broadcast, so every rank writes identical root attributes.
#include <mpi.h>

#include <string>

namespace desync {

struct Provenance {
  std::string desync_version;
  std::string git_revision;
  std::string compiler;
  std::string kokkos_version;
  std::string execution_space;
  std::string mpi_library_version;
  std::string start_time;  // ISO 8601 UTC
  std::string command_line;
  std::string environment;  // NAME=value lines of placement/MPI variables
  std::string kokkos_configuration;
};

Provenance collect_provenance(const std::string& command_line, MPI_Comm comm);

// Environment variables that steer placement and MPI, "NAME=value" per line, sorted.
std::string placement_environment();

}  // namespace desync
