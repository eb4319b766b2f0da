#pragma once
// What every SymmSquareCube algorithm works on: this rank's place in the mesh, its communicator
// families (papers.md E.2's convention on the p x p x p mesh: row = P_{:,j,k}, col = P_{i,:,k},
// grd = P_{i,j,:}, global = all; each with N_DUP duplicates), the collectives layer, the
// timeline, and its block buffers (b x b doubles each, b = ceil(N / p), column-major).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "comm/collectives.hpp"
#include "config/config.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"
#include "core/types.hpp"
#include "record/timeline.hpp"
#include "workload/block_cut.hpp"

namespace desync {

enum SscFamily : int { ssc_row = 0, ssc_col = 1, ssc_grd = 2, ssc_global = 3 };

using BlockBuffer = Kokkos::View<double*, MemSpace>;

struct SscMesh {
  BlockCut cut;
  int p = 1;        // blocks per dimension (q for 2.5d)
  int layers = 1;   // p, or c for 2.5d
  int i = 0, j = 0, k = 0;  // P_{i,j,k}; k is the layer
  int ndup = 1;
  std::unique_ptr<CommFamily> row, col, grd, global;
  std::unique_ptr<Collectives> coll;
  Timeline* tl = nullptr;
  // a: A_{i,j} = D_{i,j}; b: the B operand as received; c: the local product; d2, d3: the
  // reductions rooted here; r2, r3: D^2_{i,j}, D^3_{i,j} on layer 0 after the call; t: spare
  // (Cannon's shifts, 2.5d).
  BlockBuffer a, b, c, d2, d3, r2, r3, t;
  BlockBuffer an, bn;  // 2.5d: the blocks arriving by Cannon's shifts

  std::int64_t rows(int x) const { return cut.rows(x); }
  std::int64_t count(int x, int y) const { return cut.rows(x) * cut.rows(y); }
};

inline ConstDenseBlock cblock(const BlockBuffer& v, std::int64_t r, std::int64_t c) {
  return ConstDenseBlock(v.data(), static_cast<std::size_t>(r), static_cast<std::size_t>(c));
}
inline DenseBlock block(const BlockBuffer& v, std::int64_t r, std::int64_t c) {
  return DenseBlock(v.data(), static_cast<std::size_t>(r), static_cast<std::size_t>(c));
}

// dst[off, off + n) = src[off, off + n): a block (part) "sent" to this rank itself.
void copy_block(const BlockBuffer& dst, const BlockBuffer& src, std::int64_t off, std::int64_t n);
// The first n values of v on the host (the checks' copies of the result blocks and vectors).
std::vector<double> to_host(const BlockBuffer& v, std::int64_t n);

// A blocking block transfer within family f (the study's blocking send and receive): this rank sends
// `src` to family rank `to` if `send`, and receives `dst` from family rank `from` if `recv`; a
// transfer to itself is a copy. The receive is posted before the send, so no order of ranks can
// deadlock.
struct BlockTransfer {
  bool send = false, recv = false;
  int to = -1, from = -1;
  const BlockBuffer* src = nullptr;
  const BlockBuffer* dst = nullptr;
  std::int64_t send_count = 0, recv_count = 0;
};
void transfer_blocks(SscMesh& m, const CommFamily& f, const BlockTransfer* t, int n, int tag);

// The calls, one per algorithm (ssc_<name>.cpp): one SymmSquareCube of iteration `it`, marking
// the algorithm's events (ssc_events, symmsquarecube.hpp) on the timeline.
void ssc_original(SscMesh& m, std::int64_t it);
void ssc_baseline(SscMesh& m, std::int64_t it);
void ssc_optimized(SscMesh& m, std::int64_t it);
template <bool Parts>  // collectives in N_DUP parts (N_DUP > 1) or whole
void ssc_twofive(SscMesh& m, std::int64_t it);

// The rank of P_{x,y,z} in the global family: (z p + x) p + y ("natural" order: row by row
// within a layer, then layer by layer).
inline int mesh_rank(const SscMesh& m, int x, int y, int z) { return (z * m.p + x) * m.p + y; }

}  // namespace desync
