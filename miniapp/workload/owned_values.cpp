#include "workload/owned_values.hpp"

#include <Kokkos_Core.hpp>

#include "core/mpi_util.hpp"

namespace desync {

std::vector<double> gather_owned_values(const Vector& owned, const RowPartition& part, MPI_Comm comm) {
  const GlobalIndex total = part.end(part.ranks() - 1);
  if (total > gathered_check_rows) return {};
  const int rank = comm_rank(comm), size = comm_size(comm);
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    counts[static_cast<std::size_t>(r)] = static_cast<int>(part.rows(r));
    displs[static_cast<std::size_t>(r)] = static_cast<int>(part.begin(r));
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), owned);
  std::vector<double> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(host.data(), counts[static_cast<std::size_t>(rank)], MPI_DOUBLE, all.data(), counts.data(),
                 displs.data(), MPI_DOUBLE, comm);
  return all;
}

}  // namespace desync
