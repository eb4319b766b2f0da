#include "record/provenance.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <ctime>
#include <sstream>
#include <vector>

#include "core/mpi_util.hpp"
#include "desync_version.hpp"
#include "kokkos_compat/concurrency.hpp"

extern char** environ;

namespace desync {

std::string placement_environment() {
  static const char* prefixes[] = {"OMP_", "KOKKOS_", "OMPI_", "MPICH_", "I_MPI_", "UCX_", "GOMP_", "KMP_"};
  std::vector<std::string> lines;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    for (const char* p : prefixes)
      if (kv.rfind(p, 0) == 0) lines.push_back(kv);
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

Provenance collect_provenance(const std::string& command_line, MPI_Comm comm) {
  Provenance p;
  if (comm_rank(comm) == 0) {
    p.desync_version = build::version;
    p.git_revision = build::git_revision;
    p.compiler = fmt::format("{} ({})", build::compiler, build::build_type);
    p.kokkos_version = fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
                                   KOKKOS_VERSION % 100);
    p.execution_space = compat::execution_space_name();
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(lib, &len);
    p.mpi_library_version.assign(lib, static_cast<std::size_t>(len));
    while (!p.mpi_library_version.empty() &&
           (p.mpi_library_version.back() == '\n' || p.mpi_library_version.back() == '\0'))
      p.mpi_library_version.pop_back();
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    p.start_time = buf;
    p.command_line = command_line;
    p.environment = placement_environment();
    std::ostringstream os;
    Kokkos::print_configuration(os, false);
    p.kokkos_configuration = os.str();
  }
  for (std::string* s : {&p.desync_version, &p.git_revision, &p.compiler, &p.kokkos_version,
                         &p.execution_space, &p.mpi_library_version, &p.start_time, &p.command_line,
                         &p.environment, &p.kokkos_configuration})
    bcast_string(*s, 0, comm);
  return p;
}

}  // namespace desync
