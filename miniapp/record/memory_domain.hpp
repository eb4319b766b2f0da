#pragma once
// The memory (contention) domain of this process, from hwloc, without MPI: the NUMA node that
// holds the process's whole CPU binding and how many cores it has, and the node's last-level
// caches. One place for the hwloc queries that the "domain" thread rule, the memory-bandwidth sweep and
// the topology record share.

namespace desync {

struct MemoryDomain {
  int numa = -1;        // hwloc logical index of the NUMA node; -1: unbound or bound across nodes
  int cores = 1;        // cores of that NUMA node this process may use (the node's, if numa < 0)
  int bound_cores = 1;  // cores of the process's own binding
};

MemoryDomain this_process_memory_domain();

// The node's last-level caches summed: all L3 caches, or all L2 caches where hwloc reports no
// L3; 0 if unknown.
double node_llc_bytes();

// The L2 cache of the first core (its private cache on current CPUs); 0 if unknown. The
// benchmarks' code-balance model asks whether a row window of x fits in it.
double core_l2_bytes();

}  // namespace desync
