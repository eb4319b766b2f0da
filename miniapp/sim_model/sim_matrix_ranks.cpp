#include "sim_model/sim_matrix_ranks.hpp"

#include <utility>

namespace desync::sim {

std::vector<WorkloadDataset> matrix_share_datasets(GlobalIndex rows, GlobalIndex nnz) {
  WorkloadResult share(Timeline({}, 0, 0));
  add_matrix_share(share, rows, nnz);
  return std::move(share.datasets);
}

std::int64_t halo_entries(const std::vector<HaloPartner>& list) {
  std::int64_t n = 0;
  for (const HaloPartner& x : list) n += x.count;
  return n;
}

MatrixRanks matrix_ranks(const MatrixGenerator& g, PartitionKind partition, int ranks, bool keep_lengths) {
  MatrixRanks m;
  m.partition = make_partition(g, partition, ranks);
  m.scans.reserve(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) m.scans.push_back(scan_rank(g, m.partition, r, false, keep_lengths));  // one pass over the rows
  // Receives per owner from the rank's halo columns (ascending owner, offsets into the halo),
  // sends their transpose (ascending partner, offsets into the send buffer): the real plan
  // learns the sends with an all-to-all, here every rank's receive list is known.
  m.plans.resize(m.scans.size());
  std::vector<std::int32_t> sent(m.scans.size(), 0);
  for (std::size_t r = 0; r < m.scans.size(); ++r) {
    m.plans[r].self = static_cast<int>(r);
    std::int32_t offset = 0;
    for (const RemoteBlock& b : m.scans[r].recv) {
      const auto n = static_cast<std::int32_t>(b.entries);
      const auto o = static_cast<std::size_t>(b.owner);
      m.plans[r].recv.push_back({b.owner, offset, n});
      m.plans[o].send.push_back({static_cast<int>(r), sent[o], n});
      offset += n;
      sent[o] += n;
    }
  }
  return m;
}

}  // namespace desync::sim
