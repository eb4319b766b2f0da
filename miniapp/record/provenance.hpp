#pragma once
// What produced a result file: versions, build, MPI library, time, command line, environment.
// Collected on rank 0 and broadcast, so every rank writes identical root attributes.
#include <mpi.h>

#include <string>
#include <string_view>

namespace desync {

struct Provenance {
  std::string desync_version;
  std::string git_revision;
  std::string compiler;
  std::string build;  // desync_build_description and the compiler flags (desync/build_info.hpp)
  std::string kokkos_version;
  std::string execution_space;
  std::string mpi_library_version;
  std::string start_time;  // ISO 8601 UTC
  std::string command_line;
  std::string environment;  // NAME=value lines of placement/MPI variables
  std::string kokkos_configuration;
  std::string allocator;  // core/allocator.hpp
};

Provenance collect_provenance(const std::string& command_line, MPI_Comm comm);

// Environment variables that steer placement and MPI (prefixes OMP_, KOKKOS_, OMPI_, MPICH_,
// I_MPI_, UCX_, GOMP_, KMP_), "NAME=value" per line, sorted; entries for which
// environment_entry_is_private() is true are left out.
std::string placement_environment();

// True for an environment variable that must not be stored in a result file because it carries
// an address or a secret:
//  - its name (case-insensitive) contains TOKEN, SECRET, PASSWORD, PASSWD, KEY (but not as the
//    InfiniBand partition key PKEY), CREDENTIAL, AUTH or COOKIE, or has a '_'-separated word that starts with URI (Open MPI's
//    OMPI_MCA_orte_hnp_uri, OMPI_MCA_orte_local_daemon_uri, PMIx's PMIX_SERVER_URI2, ...),
//    or is Open MPI's PSM/OFI job key OMPI_MCA_orte_precondition_transports;
//  - its value contains a URL ("://", e.g. tcp://10.1.2.3:4711) or an IP address with a port
//    (10.1.2.3:4711, [fe80::1]:4711).
bool environment_entry_is_private(std::string_view name, std::string_view value);

}  // namespace desync
