#include "comm/halo_plan.hpp"

#include <stdexcept>

#include "core/device_copy.hpp"
#include "core/mpi_util.hpp"

namespace desync {

HaloPlan build_halo_plan(const std::vector<GlobalIndex>& halo_columns, const RowPartition& p, MPI_Comm comm) {
  const int size = comm_size(comm);
  HaloPlan h;
  h.self = comm_rank(comm);
  if (p.ranks() != size) throw std::invalid_argument("build_halo_plan: partition is for another rank count");

  std::vector<int> want(static_cast<std::size_t>(size), 0);
  int owner = -1;
  for (std::size_t i = 0; i < halo_columns.size(); ++i) {
    const GlobalIndex c = halo_columns[i];
    if (owner < 0 || c >= p.end(owner)) {
      owner = p.owner(c);
      h.recv.push_back({owner, static_cast<std::int32_t>(i), 0});
    }
    ++h.recv.back().count;
    ++want[static_cast<std::size_t>(owner)];
  }

  // Tell every owner which of its entries we need.
  std::vector<int> give(static_cast<std::size_t>(size), 0);
  MPI_Alltoall(want.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm);
  std::vector<int> want_off(static_cast<std::size_t>(size) + 1, 0), give_off(static_cast<std::size_t>(size) + 1, 0);
  for (int r = 0; r < size; ++r) {
    want_off[r + 1] = want_off[r] + want[r];
    give_off[r + 1] = give_off[r] + give[r];
  }
  std::vector<GlobalIndex> asked(static_cast<std::size_t>(give_off[size]));
  static_assert(sizeof(GlobalIndex) == sizeof(long long), "GlobalIndex is sent as MPI_LONG_LONG");
  MPI_Alltoallv(halo_columns.data(), want.data(), want_off.data(), MPI_LONG_LONG, asked.data(), give.data(),
                give_off.data(), MPI_LONG_LONG, comm);

  const GlobalIndex first = p.begin(h.self);
  for (int r = 0; r < size; ++r) {
    if (give[r] == 0) continue;
    h.send.push_back({r, static_cast<std::int32_t>(h.send_index_host.size()), give[r]});
    for (int i = give_off[r]; i < give_off[r + 1]; ++i) {
      const GlobalIndex g = asked[static_cast<std::size_t>(i)];
      if (g < first || g >= p.end(h.self)) throw std::logic_error("build_halo_plan: asked for an entry this rank does not own");
      h.send_index_host.push_back(static_cast<std::int32_t>(g - first));
    }
  }
  h.send_index = to_device("desync::comm::send_index", h.send_index_host);
  return h;
}

}  // namespace desync
