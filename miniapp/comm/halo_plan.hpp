#pragma once
// Who sends which vector entries to whom in a halo exchange of a distributed sparse matrix.
// Receives come from the local matrix's halo columns (grouped by owner); sends are learned from
// the partners' receive lists with one all-to-all at setup, so every send list is exactly the
// matching partner's receive list.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "matrix/generator.hpp"
#include "matrix/row_partition.hpp"

namespace desync {

struct HaloPartner {
  int rank = -1;
  std::int32_t offset = 0;  // into the halo (receive) or into send_index (send)
  std::int32_t count = 0;   // vector entries per exchange
};

struct HaloPlan {
  int self = 0;
  std::vector<HaloPartner> recv;  // ascending rank; halo entries [offset, offset+count)
  std::vector<HaloPartner> send;  // ascending rank; send_index[offset, offset+count)
  std::vector<std::int32_t> send_index_host;  // local rows to pack, grouped by partner
  LocalColumns send_index;                    // the same on the default memory space

  // Bytes of one message to/from partner p for scalar size `scalar_bytes` and block width nb.
  static std::int64_t bytes(const HaloPartner& p, int scalar_bytes, int nb) {
    return static_cast<std::int64_t>(p.count) * scalar_bytes * nb;
  }
};

// Collective. `halo_columns` sorted ascending (LocalMatrix::halo_columns).
HaloPlan build_halo_plan(const std::vector<GlobalIndex>& halo_columns, const RowPartition& p, MPI_Comm comm);

}  // namespace desync
