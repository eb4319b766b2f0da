#include "workloads/symmsquarecube/ssc_mesh.hpp"
#include "workloads/symmsquarecube/symmsquarecube.hpp"

namespace desync {

void copy_block(const BlockBuffer& dst, const BlockBuffer& src, std::int64_t off, std::int64_t n) {
  const std::pair<std::int64_t, std::int64_t> r{off, off + n};
  Kokkos::deep_copy(Kokkos::subview(dst, r), Kokkos::subview(src, r));
}

std::vector<double> to_host(const BlockBuffer& v, std::int64_t n) {
  std::vector<double> h(static_cast<std::size_t>(n));
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()),
                    Kokkos::subview(v, std::pair<std::int64_t, std::int64_t>(0, n)));
  return h;
}

void transfer_blocks(SscMesh& m, const CommFamily& f, const BlockTransfer* t, int n, int tag) {
  for (int x = 0; x < n; ++x)
    if (t[x].recv && t[x].from != f.rank()) m.coll->irecv(f, 0, t[x].dst->data(), t[x].recv_count, MPI_DOUBLE, t[x].from, tag + x);
  for (int x = 0; x < n; ++x) {
    if (!t[x].send) continue;
    if (t[x].to == f.rank()) copy_block(*t[x].dst, *t[x].src, 0, t[x].send_count);
    else m.coll->send(f, t[x].src->data(), t[x].send_count, MPI_DOUBLE, t[x].to, tag + x);
  }
  m.coll->wait_all();
}

std::vector<std::string> ssc_events(SscAlgorithm a) {
  switch (a) {
    case SscAlgorithm::original:
      return {"begin", "bcast1_end", "gemm1_end", "reduce1_end", "p2p1_end", "transpose_end", "bcast2_end", "gemm2_end", "reduce2_end", "p2p2_end"};
    case SscAlgorithm::baseline:
      return {"begin", "bcast1_end", "gemm1_end", "reduce1_end", "bcast2_end", "gemm2_end", "reduce2_end", "p2p_end"};
    case SscAlgorithm::optimized:
      return {"begin", "bcast1_end", "gemm1_end", "reduce_bcast_end", "gemm2_end", "reduce_p2p_end"};
    case SscAlgorithm::twofive:
      return {"begin", "bcast_end", "cannon1_end", "allreduce_end", "cannon2_end", "reduce_end"};
  }
  return {};
}

}  // namespace desync
