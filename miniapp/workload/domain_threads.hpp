#pragma once
// [threads] per_rank = "domain": each rank takes its share of the cores of the memory domain
// (hwloc NUMA node) it is bound to, so one deck serves every ranks-per-domain point of a hybrid
// sweep. Resolved once at start, before Kokkos starts its threads; the count each rank got is
// what /topology/threads records.
#include <mpi.h>

#include <string>

#include "config/config.hpp"

namespace desync {

struct DomainThreads {
  int threads = 1;           // this rank's share
  int domain = -1;           // NUMA node (hwloc logical index); -1: not bound inside one, the node's cores are shared
  int domain_cores = 1;      // cores of that domain (or of the node) this process may use
  int ranks_in_domain = 1;   // ranks of this node in the same domain
  int bound_cores = 1;       // cores of the rank's own binding
  std::string note;          // why the share was cut, if it was
};

// Splits domain cores d among the k ranks sharing it: the first d mod k ranks (by index i) get one
// more; every rank gets at least one thread. Pure, for tests.
int domain_share(int domain_cores, int ranks_in_domain, int index);

// Collective over comm (uses MPI_COMM_TYPE_SHARED to find the ranks of each node).
DomainThreads resolve_domain_threads(MPI_Comm comm);

// The threads this rank will start Kokkos with for the deck's [threads] table (what main.cpp
// requests), for checks made before Kokkos starts: per_rank, the rank's domain share with
// per_rank = "domain" (collective over comm, like resolve_domain_threads), else the backend's
// default (OMP_NUM_THREADS or all cores); 1 on the Serial backend.
int planned_threads(const ThreadsConfig& threads, MPI_Comm comm);

}  // namespace desync
