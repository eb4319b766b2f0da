#include "record/topology.hpp"

#include <fmt/format.h>
#include <hwloc.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "device.hpp"
#include "host/host_threads.hpp"
#include "record/memory_domain.hpp"
#include "record/mpi_library.hpp"
#include "record/cpu_frequency.hpp"
#include "record/hwloc_handle.hpp"
#include "record/hwloc_xml.hpp"
#include "kokkos_compat/concurrency.hpp"

namespace desync {
namespace {

using Hwloc = hwloc::Topology;
using hwloc::Bitmap;
using hwloc::make_bitmap;

std::string list_string(hwloc_const_bitmap_t set) {
  char* s = nullptr;
  hwloc_bitmap_list_asprintf(&s, set);
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

// Logical index of the single object of `type` whose cpuset contains all of `set`; -1 if none.
int containing(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_bitmap_t set) {
  if (hwloc_bitmap_iszero(set)) return -1;
  const int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, static_cast<unsigned>(i));
    if (o && o->cpuset && hwloc_bitmap_isincluded(set, o->cpuset)) return static_cast<int>(o->logical_index);
  }
  return -1;
}

int node_index_of(MPI_Comm comm, MPI_Comm node_comm) {
  int rank = 0, node_rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_rank(node_comm, &node_rank);
  MPI_Comm leaders;
  MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  int index = 0;
  if (leaders != MPI_COMM_NULL) {
    MPI_Comm_rank(leaders, &index);
    MPI_Comm_free(&leaders);
  }
  MPI_Bcast(&index, 1, MPI_INT, 0, node_comm);
  return index;
}

}  // namespace

Topology probe_topology(MPI_Comm comm) {
  Topology t;
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  t.hostname.assign(host, static_cast<std::size_t>(len));

  MPI_Comm node_comm;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm);
  MPI_Comm_size(node_comm, &t.ranks_on_node);
  t.node_index = node_index_of(comm, node_comm);

  Hwloc hw;
  const unsigned v = hwloc_get_api_version();
  t.hwloc_version = fmt::format("{}.{}.{}", v >> 16, (v >> 8) & 0xff, v & 0xff);
  NodeTopologies nodes = gather_node_topologies(hw.topo, comm, node_comm);
  t.hwloc_xml = std::move(nodes.xml);
  t.hwloc_xml_index = nodes.index;
  hwloc_const_bitmap_t machine = hwloc_topology_get_allowed_cpuset(hw.topo);
  const int machine_pus = hwloc_bitmap_weight(machine);

  auto proc = make_bitmap();
  if (hwloc_get_cpubind(hw.topo, proc.get(), HWLOC_CPUBIND_PROCESS) != 0) hwloc_bitmap_copy(proc.get(), machine);
  t.process_cpuset = list_string(proc.get());
  std::vector<int> cpus;
  for (int cpu = hwloc_bitmap_first(proc.get()); cpu >= 0; cpu = hwloc_bitmap_next(proc.get(), cpu)) cpus.push_back(cpu);
  t.cpu_frequency = cpu_frequency_state(cpus);
  const bool rank_unbound = machine_pus > 1 && hwloc_bitmap_isequal(proc.get(), machine);

  // Host threads: what shares the node's cores (a GPU build's device concurrency, 270336 on an
  // H200, would read as oversubscription).
  t.threads = compat::host_concurrency();
  t.thread.resize(static_cast<std::size_t>(t.threads));
  backend::for_each_host_thread([&](int tid, int) {
    if (tid >= t.threads) return;
    auto set = make_bitmap();
    auto last = make_bitmap();
    if (hwloc_get_cpubind(hw.topo, set.get(), HWLOC_CPUBIND_THREAD) != 0) hwloc_bitmap_copy(set.get(), proc.get());
    ThreadPlace& p = t.thread[static_cast<std::size_t>(tid)];
    p.cpuset = list_string(set.get());
    if (hwloc_get_last_cpu_location(hw.topo, last.get(), HWLOC_CPUBIND_THREAD) == 0)
      p.last_cpu = hwloc_bitmap_first(last.get());
    p.package = containing(hw.topo, HWLOC_OBJ_PACKAGE, set.get());
    p.numa = containing(hw.topo, HWLOC_OBJ_NUMANODE, set.get());
    p.l3 = containing(hw.topo, HWLOC_OBJ_L3CACHE, set.get());
  });
  bool threads_unbound = false;
  t.contention_domain = t.thread.empty() ? -1 : t.thread[0].numa;
  for (const auto& p : t.thread) {
    if (p.numa != t.thread[0].numa) t.contention_domain = -1;
    auto set = make_bitmap();
    hwloc_bitmap_list_sscanf(set.get(), p.cpuset.c_str());
    threads_unbound = threads_unbound || (t.threads > 1 && hwloc_bitmap_weight(set.get()) > 1);
  }
  if (t.contention_domain >= 0) t.contention_domain += t.node_index * 1024;

  // The rank's GPU, and whether ranks of this node share one (bus ids compared, not indices: each
  // rank may see its own numbering).
  const int dev = backend::current_device();
  t.device = dev >= 0 ? backend::describe_device(dev) : std::string{};
  int shared = 0;
  if (dev >= 0) {
    char bus[32] = {};
    const std::string mine = backend::device_bus_id(dev);
    std::snprintf(bus, sizeof bus, "%s", mine.c_str());
    std::vector<char> all(sizeof bus * static_cast<std::size_t>(t.ranks_on_node));
    MPI_Allgather(bus, sizeof bus, MPI_CHAR, all.data(), sizeof bus, MPI_CHAR, node_comm);
    int local = 0;
    MPI_Comm_rank(node_comm, &local);
    for (int r = 0; r < t.ranks_on_node; ++r)
      if (r != local && std::strncmp(all.data() + r * sizeof bus, bus, sizeof bus) == 0) shared = 1;
  }

  // Oversubscription: threads of all ranks on this node against the PUs of the node.
  int node_threads = 0;
  MPI_Allreduce(&t.threads, &node_threads, 1, MPI_INT, MPI_SUM, node_comm);
  MPI_Comm_free(&node_comm);
  int flags[4] = {rank_unbound ? 1 : 0, threads_unbound ? 1 : 0, node_threads > machine_pus ? 1 : 0, shared};
  int counts[4] = {0, 0, 0, 0};
  MPI_Allreduce(flags, counts, 4, MPI_INT, MPI_SUM, comm);
  if (counts[3] > 0)
    t.warnings.push_back(fmt::format("{} rank(s) share their GPU with another rank of their node (more ranks than GPUs, "
                                     "or the launcher gave them the same one); kernels and transfers of those ranks "
                                     "compete for one device", counts[3]));
  if (counts[0] > 0)
    t.warnings.push_back(fmt::format("{} rank(s) are not bound to cores (binding is the whole machine); "
                                     "timelines will include migrations ({})",
                                     counts[0], binding_hint()));
  if (counts[1] > 0)
    t.warnings.push_back(fmt::format("{} rank(s) have threads not bound to single cores "
                                     "(set OMP_PROC_BIND=close OMP_PLACES=cores)", counts[1]));
  t.oversubscribed = counts[2] > 0;
  t.node_llc_bytes = node_llc_bytes();
  if (counts[2] > 0)
    t.warnings.push_back(fmt::format("node oversubscribed: {} rank(s) see more threads on their node "
                                     "than hardware threads ({}); timings are not meaningful", counts[2], machine_pus));
  return t;
}

}  // namespace desync
