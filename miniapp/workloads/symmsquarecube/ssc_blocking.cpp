// The blocking SymmSquareCube algorithms (papers.md E.2): original (Alg. 3, GTFock) and
// baseline (Alg. 4). Rank P_{i,j,k}; row = P_{:,j,k} (rank i), col = P_{i,:,k} (rank j),
// grd = P_{i,j,:} (rank k). Block (x, y) has rows(x) x rows(y) entries, column-major.
#include "dense/gemm.hpp"
#include "workloads/symmsquarecube/ssc_mesh.hpp"

namespace desync {
namespace {

// Steps 1-3 of both: A_{i,j} = D_{i,j} from layer 0 down the grid fibre; P_{k,j,k} broadcasts its
// A = D_{k,j} along the row as B^T; C = A B (B = D_{k,j}^T = D_{j,k}, D symmetric).
void first_product(SscMesh& m, std::int64_t it) {
  const int i = m.i, j = m.j, k = m.k;
  m.coll->bcast(*m.grd, m.a.data(), m.count(i, j), MPI_DOUBLE, 0);
  const BlockBuffer& bt = i == k ? m.a : m.b;
  m.coll->bcast(*m.row, bt.data(), m.count(k, j), MPI_DOUBLE, k);
  m.tl->mark(it, 1);
  gemm("N", "T", 1.0, cblock(m.a, m.rows(i), m.rows(j)), cblock(bt, m.rows(k), m.rows(j)), 0.0, block(m.c, m.rows(i), m.rows(k)));
  Kokkos::fence();
  m.tl->mark(it, 2);
}

// C = A B for the second product, B = D^2_{j,k} in `b`.
void second_product(SscMesh& m, const BlockBuffer& b) {
  gemm("N", "N", 1.0, cblock(m.a, m.rows(m.i), m.rows(m.j)), cblock(b, m.rows(m.j), m.rows(m.k)), 0.0,
       block(m.c, m.rows(m.i), m.rows(m.k)));
  Kokkos::fence();
}

// P_{i,k,k} holds D^n_{i,k} in `d`; it goes to P_{i,k,0} (grd rank 0), into `r` there.
BlockTransfer down_to_layer0(const SscMesh& m, const BlockBuffer& d, const BlockBuffer& r) {
  BlockTransfer t;
  t.send = m.j == m.k;
  t.to = 0;
  t.src = &d;
  t.send_count = m.count(m.i, m.k);
  t.recv = m.k == 0;
  t.from = m.j;  // P_{i,j,j}
  t.dst = &r;
  t.recv_count = m.count(m.i, m.j);
  return t;
}

}  // namespace

void ssc_original(SscMesh& m, std::int64_t it) {
  const int i = m.i, j = m.j, k = m.k;
  first_product(m, it);
  // Reduce C_{i,:,k} to D^2_{i,k} on P_{i,k,k}.
  m.coll->reduce(*m.col, m.c.data(), m.d2.data(), m.count(i, k), MPI_DOUBLE, k);
  m.tl->mark(it, 3);
  const BlockTransfer d2 = down_to_layer0(m, m.d2, m.r2);
  transfer_blocks(m, *m.grd, &d2, 1, 0);
  m.tl->mark(it, 4);
  // Transpose: D^2_{a,b} on P_{a,b,b} goes to P_{b,a,b}, so P_{k,j,k} holds D^2_{j,k}.
  BlockTransfer tr;
  tr.send = j == k;
  tr.to = mesh_rank(m, k, i, k);
  tr.src = &m.d2;
  tr.send_count = m.count(i, k);
  tr.recv = i == k;
  tr.from = mesh_rank(m, j, k, k);
  tr.dst = &m.b;
  tr.recv_count = m.count(j, k);
  transfer_blocks(m, *m.global, &tr, 1, 0);
  m.tl->mark(it, 5);
  // P_{k,j,k} broadcasts D^2_{j,k} along the row as B_{j,k}.
  m.coll->bcast(*m.row, m.b.data(), m.count(j, k), MPI_DOUBLE, k);
  m.tl->mark(it, 6);
  second_product(m, m.b);
  m.tl->mark(it, 7);
  m.coll->reduce(*m.col, m.c.data(), m.d3.data(), m.count(i, k), MPI_DOUBLE, k);
  m.tl->mark(it, 8);
  const BlockTransfer d3 = down_to_layer0(m, m.d3, m.r3);
  transfer_blocks(m, *m.grd, &d3, 1, 1);
  m.tl->mark(it, 9);
}

void ssc_baseline(SscMesh& m, std::int64_t it) {
  const int i = m.i, j = m.j, k = m.k;
  first_product(m, it);
  // Reduce C_{i,:,k} to D^2_{i,k} on P_{i,i,k}: no transpose needed.
  m.coll->reduce(*m.col, m.c.data(), m.d2.data(), m.count(i, k), MPI_DOUBLE, i);
  m.tl->mark(it, 3);
  // P_{j,j,k} broadcasts D^2_{j,k} along the row as B_{j,k}.
  const BlockBuffer& b = i == j ? m.d2 : m.b;
  m.coll->bcast(*m.row, b.data(), m.count(j, k), MPI_DOUBLE, j);
  m.tl->mark(it, 4);
  second_product(m, b);
  m.tl->mark(it, 5);
  m.coll->reduce(*m.col, m.c.data(), m.d3.data(), m.count(i, k), MPI_DOUBLE, k);
  m.tl->mark(it, 6);
  // P_{i,i,k} sends D^2_{i,k} to P_{i,k,0} (global); P_{i,k,k} sends D^3_{i,k} to P_{i,k,0} (grd).
  BlockTransfer d2;
  d2.send = i == j;
  d2.to = mesh_rank(m, i, k, 0);
  d2.src = &m.d2;
  d2.send_count = m.count(i, k);
  d2.recv = k == 0;
  d2.from = mesh_rank(m, i, i, j);
  d2.dst = &m.r2;
  d2.recv_count = m.count(i, j);
  transfer_blocks(m, *m.global, &d2, 1, 0);
  const BlockTransfer d3 = down_to_layer0(m, m.d3, m.r3);
  transfer_blocks(m, *m.grd, &d3, 1, 1);
  m.tl->mark(it, 7);
}

}  // namespace desync
