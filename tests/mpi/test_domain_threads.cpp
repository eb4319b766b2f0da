// [threads] per_rank = "domain" on the ranks mpiexec started: every rank of a memory domain gets
// its share of the domain's cores, the shares add up to the domain's cores (at least one each),
// and every rank agrees on how many ranks share its domain.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>

#include "workload/domain_threads.hpp"

namespace desync {
namespace {

TEST(DomainThreads, SharesAddUpToTheDomainsCores) {
  const DomainThreads d = resolve_domain_threads(MPI_COMM_WORLD);
  EXPECT_GE(d.threads, 1);
  EXPECT_GE(d.domain_cores, 1);
  EXPECT_GE(d.ranks_in_domain, 1);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  // Sum the shares of the ranks in my domain (before a binding cut them).
  int domain_key = d.domain + 1;  // MPI_Comm_split wants colours >= 0
  MPI_Comm same;
  MPI_Comm_split(node, domain_key, 0, &same);
  int members = 0, sum = 0, share = domain_share(d.domain_cores, d.ranks_in_domain, 0);
  MPI_Comm_size(same, &members);
  int index = 0;
  MPI_Comm_rank(same, &index);
  share = domain_share(d.domain_cores, d.ranks_in_domain, index);
  MPI_Allreduce(&share, &sum, 1, MPI_INT, MPI_SUM, same);
  EXPECT_EQ(members, d.ranks_in_domain);
  EXPECT_EQ(sum, std::max(d.domain_cores, d.ranks_in_domain));
  EXPECT_LE(d.threads, share);
  MPI_Comm_free(&same);
  MPI_Comm_free(&node);
}

}  // namespace
}  // namespace desync
