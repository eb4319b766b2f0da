#include "commands/info.hpp"

#include <fmt/format.h>
#include <hwloc.h>

#include <Kokkos_Core.hpp>
#include <sstream>
#include <string>

#include "core/allocator.hpp"
#include "core/mpi_util.hpp"
#include "desync_version.hpp"
#include "kokkos_compat/concurrency.hpp"

namespace desync {
namespace {

std::string hwloc_summary() {
  hwloc_topology_t topo;
  hwloc_topology_init(&topo);
  hwloc_topology_load(topo);
  auto count = [&](hwloc_obj_type_t t) { return hwloc_get_nbobjs_by_type(topo, t); };
  std::string s = fmt::format("  packages {}, NUMA nodes {}, L3 caches {}, cores {}, hardware threads {}\n",
                              count(HWLOC_OBJ_PACKAGE), count(HWLOC_OBJ_NUMANODE), count(HWLOC_OBJ_L3CACHE),
                              count(HWLOC_OBJ_CORE), count(HWLOC_OBJ_PU));
  for (int i = 0; i < count(HWLOC_OBJ_L3CACHE); ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L3CACHE, static_cast<unsigned>(i));
    char* set = nullptr;
    hwloc_bitmap_list_asprintf(&set, o->cpuset);
    s += fmt::format("  L3 #{}: {} KiB, cpus {}\n", i, o->attr->cache.size / 1024, set ? set : "?");
    std::free(set);
  }
  hwloc_topology_destroy(topo);
  return s;
}

}  // namespace

std::string info_text(MPI_Comm comm) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(lib, &len);
  // The length may count the terminating NUL, and Open MPI's string ends in a newline.
  std::string mpi_version(lib, static_cast<std::size_t>(len));
  while (!mpi_version.empty() && (mpi_version.back() == '\0' || mpi_version.back() == '\n'))
    mpi_version.pop_back();
  std::ostringstream kokkos;
  Kokkos::print_configuration(kokkos, false);
  std::string s = fmt::format("desync {} (git {}), {} {}\n", build::version, build::git_revision,
                              build::compiler, build::build_type);
  s += fmt::format("Kokkos {}.{}.{}: default execution space {}, concurrency {}\n", KOKKOS_VERSION / 10000,
                   KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100, compat::execution_space_name(),
                   compat::concurrency());
  s += kokkos.str();
  s += fmt::format("malloc: {}\n", allocator_description());
  s += fmt::format("MPI: {} rank(s); {}\n", comm_size(comm), mpi_version);
  const unsigned v = hwloc_get_api_version();
  s += fmt::format("hwloc {}.{}.{} topology:\n", v >> 16, (v >> 8) & 0xff, v & 0xff);
  s += hwloc_summary();
  return s;
}

}  // namespace desync
