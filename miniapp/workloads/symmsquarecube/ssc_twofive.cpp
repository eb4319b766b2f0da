// The 2.5D SymmSquareCube (papers.md E.2, Alg. 6): a q x q x c mesh, rank P_{i,j,l} = (l q + i) q + j;
// here row = P_{i,:,l} (rank j) and col = P_{:,j,l} (rank i), the directions of Cannon's shifts,
// and grd = P_{i,j,:} (rank l). Layer l computes the Cannon steps s = l q/c .. (l+1) q/c - 1 of
// C_{i,j} = sum_t A_{i,t} B_{t,j}, t = (i + j + s) mod q, so the layers' sums together are the
// full product:
//   1. D_{i,j} from layer 0 down the grid fibre (A and B both are D);
//   2. skew (A_{i,t0} from P_{i,t0,l}, B_{t0,j} from P_{t0,j,l}), then q/c steps of gemm and a
//      shift (A one to the left, B one up), point-to-point;
//   3. MPI_Allreduce of C over the fibre: D^2_{i,j} on every layer, the next B;
//   4. the same Cannon steps with A = D, B = D^2;
//   5. MPI_Reduce of C over the fibre onto layer 0: D^3_{i,j}.
// N_DUP > 1: each of the three collectives is cut into N_DUP parts on the duplicates, posted
// together and completed together (no pipelining across operations is possible here).
#include <utility>

#include "dense/gemm.hpp"
#include "workloads/symmsquarecube/ssc_mesh.hpp"

namespace desync {
namespace {

int wrap(int x, int q) { return ((x % q) + q) % q; }

// Steps 2 or 4: C = sum over this layer's steps of A_{i,t} B_{t,j}; A's source is `a_src`
// (D_{i,j}), B's `b_src` (D_{i,j} or D^2_{i,j}), both skewed into place first.
void cannon(SscMesh& m, const BlockBuffer& a_src, const BlockBuffer& b_src) {
  const int q = m.p, i = m.i, j = m.j, steps = m.p / m.layers, s0 = m.k * steps;
  Collectives& x = *m.coll;
  BlockBuffer acur = m.t, bcur = m.b, anext = m.an, bnext = m.bn;
  int t = wrap(i + j + s0, q);
  // Skew: this rank's D_{i,j} is A for P_{i,(j-i-s0),l} and B for P_{(i-j-s0),j,l}.
  BlockTransfer skew_a{true, true, wrap(j - i - s0, q), t, &a_src, &acur, m.count(i, j), m.count(i, t)};
  BlockTransfer skew_b{true, true, wrap(i - j - s0, q), t, &b_src, &bcur, m.count(i, j), m.count(t, j)};
  transfer_blocks(m, *m.row, &skew_a, 1, 2);
  transfer_blocks(m, *m.col, &skew_b, 1, 3);
  for (int s = 0; s < steps; ++s) {
    gemm("N", "N", 1.0, cblock(acur, m.rows(i), m.rows(t)), cblock(bcur, m.rows(t), m.rows(j)), s == 0 ? 0.0 : 1.0,
         block(m.c, m.rows(i), m.rows(j)));
    Kokkos::fence();
    if (s + 1 == steps) break;
    // Shift: A_{i,t+1} comes from the right neighbour, B_{t+1,j} from the one below.
    const int tn = wrap(t + 1, q);
    x.irecv(*m.row, 0, anext.data(), m.count(i, tn), MPI_DOUBLE, wrap(j + 1, q), 4);
    x.irecv(*m.col, 0, bnext.data(), m.count(tn, j), MPI_DOUBLE, wrap(i + 1, q), 5);
    x.isend(*m.row, 0, acur.data(), m.count(i, t), MPI_DOUBLE, wrap(j - 1, q), 4);
    x.isend(*m.col, 0, bcur.data(), m.count(t, j), MPI_DOUBLE, wrap(i - 1, q), 5);
    x.wait_all();
    std::swap(acur, anext);
    std::swap(bcur, bnext);
    t = tn;
  }
}

// A collective over the grid fibre: whole (Parts = false, N_DUP = 1) or in N_DUP parts posted
// together (Parts = true); which one is chosen once, with the algorithm (ssc_twofive<Parts>).
template <bool Parts, class Post, class Whole>
void over_fibre(SscMesh& m, std::int64_t count, Post post, Whole whole) {
  if constexpr (Parts) {
    for (int c = 0; c < m.ndup; ++c) post(c, part_of(count, m.ndup, c));
    m.coll->wait_all();
  } else {
    whole(count);
  }
}

}  // namespace

template <bool Parts>
void ssc_twofive(SscMesh& m, std::int64_t it) {
  Collectives& x = *m.coll;
  const std::int64_t n = m.count(m.i, m.j);
  over_fibre<Parts>(
      m, n, [&](int c, Part q) { x.ibcast(*m.grd, c, m.a.data() + q.offset, q.count, MPI_DOUBLE, 0); },
      [&](std::int64_t cnt) { x.bcast(*m.grd, m.a.data(), cnt, MPI_DOUBLE, 0); });
  m.tl->mark(it, 1);
  cannon(m, m.a, m.a);
  m.tl->mark(it, 2);
  over_fibre<Parts>(
      m, n, [&](int c, Part q) { x.iallreduce(*m.grd, c, m.c.data() + q.offset, m.r2.data() + q.offset, q.count, MPI_DOUBLE); },
      [&](std::int64_t cnt) { x.allreduce(*m.grd, m.c.data(), m.r2.data(), cnt, MPI_DOUBLE); });
  m.tl->mark(it, 3);
  cannon(m, m.a, m.r2);
  m.tl->mark(it, 4);
  over_fibre<Parts>(
      m, n, [&](int c, Part q) { x.ireduce(*m.grd, c, m.c.data() + q.offset, m.r3.data() + q.offset, q.count, MPI_DOUBLE, 0); },
      [&](std::int64_t cnt) { x.reduce(*m.grd, m.c.data(), m.r3.data(), cnt, MPI_DOUBLE, 0); });
  m.tl->mark(it, 5);
}

template void ssc_twofive<false>(SscMesh&, std::int64_t);
template void ssc_twofive<true>(SscMesh&, std::int64_t);

}  // namespace desync
