#include "workload/domain_threads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "host/host_threads.hpp"
#include "record/memory_domain.hpp"

namespace desync {

int domain_share(int domain_cores, int ranks_in_domain, int index) {
  const int k = std::max(1, ranks_in_domain);
  return std::max(1, domain_cores / k + (index < domain_cores % k ? 1 : 0));
}

DomainThreads resolve_domain_threads(MPI_Comm comm) {
  // An unbound rank (or one bound across NUMA nodes) cannot be placed in one domain: it shares the
  // node's cores with the node's ranks (MemoryDomain::numa = -1, cores = the node's).
  const MemoryDomain m = this_process_memory_domain();
  DomainThreads d;
  d.domain = m.numa;
  d.domain_cores = m.cores;
  d.bound_cores = m.bound_cores;

  MPI_Comm node;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_size = 1, node_rank = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_rank(node, &node_rank);
  std::vector<int> domains(static_cast<std::size_t>(node_size));
  MPI_Allgather(&d.domain, 1, MPI_INT, domains.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
  d.ranks_in_domain = static_cast<int>(std::count(domains.begin(), domains.end(), d.domain));
  const int index = static_cast<int>(std::count(domains.begin(), domains.begin() + node_rank, d.domain));

  const int share = domain_share(d.domain_cores, d.ranks_in_domain, index);
  d.threads = share;
  // A binding narrower than the share (e.g. mpiexec's --bind-to core) would stack threads on cores.
  if (d.domain >= 0 && d.bound_cores < share) {
    d.threads = d.bound_cores;
    d.note = fmt::format("cut to the {} core(s) the rank is bound to", d.bound_cores);
  }
  if (d.ranks_in_domain > d.domain_cores) d.note = "more ranks than cores in the domain: one thread each, oversubscribed";
  return d;
}

int planned_threads(const ThreadsConfig& threads, MPI_Comm comm) {
  const int requested = threads.per_domain ? resolve_domain_threads(comm).threads : static_cast<int>(threads.per_rank);
  return backend::planned_host_threads(requested);
}

}  // namespace desync
