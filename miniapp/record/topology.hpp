#pragma once
// Where each rank and thread runs: host, node, CPU bindings and the hwloc package / NUMA / L3
// objects that hold them (the memory contention domain of the idle-wave papers).
#include <mpi.h>

#include <string>
#include <vector>

namespace desync {

struct ThreadPlace {
  std::string cpuset;  // hwloc list syntax, "0-3,8"
  int last_cpu = -1;
  int package = -1;  // hwloc logical index, -1 if the binding spans several
  int numa = -1;
  int l3 = -1;
};

struct Topology {
  std::string hostname;
  int node_index = 0;
  int ranks_on_node = 1;
  int threads = 1;
  std::string process_cpuset;
  std::string cpu_frequency;  // cpufreq state of the process_cpuset's CPUs (record/cpu_frequency.hpp)
  std::vector<ThreadPlace> thread;
  int contention_domain = -1;
  std::vector<std::string> warnings;  // identical on all ranks
  bool oversubscribed = false;        // some node has more threads than hardware threads
  double node_llc_bytes = 0;          // this node's last-level caches, summed (0: unknown)
  std::string hwloc_version;
  // The distinct node topologies as hwloc XML (identical on all ranks; record/hwloc_xml.hpp) and
  // which one is this rank's node; empty and -1 in a simulation.
  std::vector<std::string> hwloc_xml;
  int hwloc_xml_index = -1;
  // The rank's GPU (backends/device.hpp): name, bus id, UUID, memory, CUDA runtime and driver;
  // "" in a host build. Ranks of a node on one GPU add a warning.
  std::string device;
};

// Collective over comm: probes this rank, agrees on node numbering and placement warnings.
Topology probe_topology(MPI_Comm comm);

}  // namespace desync
