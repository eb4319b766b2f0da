// The optimized SymmSquareCube (papers.md E.2, Alg. 5): Alg. 4's steps with every block cut into
// N_DUP contiguous parts, part c on the c-th duplicate of each communicator, all MPI-3
// nonblocking. What overlaps: the two first broadcasts (P_{i,j,i} passes part c on as soon as it
// has it); each part of the first reduction is broadcast as soon as it is reduced; the second
// reduction overlaps the two block transfers to layer 0. N_DUP = 1 is Alg. 4 with nonblocking
// calls. Same mesh convention as ssc_blocking.cpp.
#include <vector>

#include "dense/gemm.hpp"
#include "workloads/symmsquarecube/ssc_mesh.hpp"

namespace desync {

void ssc_optimized(SscMesh& m, std::int64_t it) {
  const int i = m.i, j = m.j, k = m.k, nd = m.ndup;
  Collectives& x = *m.coll;
  // Slots of the parts a later step waits for (at most 64 duplicates: [comm] communicators).
  int first[64], reduced[64], cubed[64];

  // 1-3: D_{i,j} down the grid fibre; P_{k,j,k} forwards each part along the row as it arrives.
  for (int c = 0; c < nd; ++c) {
    const Part q = part_of(m.count(i, j), nd, c);
    first[c] = x.ibcast(*m.grd, c, m.a.data() + q.offset, q.count, MPI_DOUBLE, 0);
  }
  const bool row_root = i == k;
  const BlockBuffer& bt = row_root ? m.a : m.b;
  for (int c = 0; c < nd; ++c) {
    const Part q = part_of(m.count(k, j), nd, c);
    if (row_root) x.wait(first[c]);
    x.ibcast(*m.row, c, bt.data() + q.offset, q.count, MPI_DOUBLE, k);
  }
  x.wait_all();
  m.tl->mark(it, 1);
  gemm("N", "T", 1.0, cblock(m.a, m.rows(i), m.rows(j)), cblock(bt, m.rows(k), m.rows(j)), 0.0, block(m.c, m.rows(i), m.rows(k)));
  Kokkos::fence();
  m.tl->mark(it, 2);

  // 5-7: reduce part c onto P_{i,i,k}; P_{j,j,k} broadcasts each part along the row once reduced.
  for (int c = 0; c < nd; ++c) {
    const Part q = part_of(m.count(i, k), nd, c);
    reduced[c] = x.ireduce(*m.col, c, m.c.data() + q.offset, m.d2.data() + q.offset, q.count, MPI_DOUBLE, i);
  }
  const bool diag = i == j;
  const BlockBuffer& b = diag ? m.d2 : m.b;
  for (int c = 0; c < nd; ++c) {
    const Part q = part_of(m.count(j, k), nd, c);
    if (diag) x.wait(reduced[c]);
    x.ibcast(*m.row, c, b.data() + q.offset, q.count, MPI_DOUBLE, j);
  }
  x.wait_all();
  m.tl->mark(it, 3);
  gemm("N", "N", 1.0, cblock(m.a, m.rows(i), m.rows(j)), cblock(b, m.rows(j), m.rows(k)), 0.0, block(m.c, m.rows(i), m.rows(k)));
  Kokkos::fence();
  m.tl->mark(it, 4);

  // 9-11: reduce D^3 onto P_{i,k,k} while D^2 travels from P_{i,i,k} to P_{i,k,0}; each part of
  // D^3 leaves for P_{i,k,0} as soon as it is reduced.
  for (int c = 0; c < nd; ++c) {
    const Part q = part_of(m.count(i, k), nd, c);
    cubed[c] = x.ireduce(*m.col, c, m.c.data() + q.offset, m.d3.data() + q.offset, q.count, MPI_DOUBLE, k);
  }
  const int d2_from = mesh_rank(m, i, i, j), d2_to = mesh_rank(m, i, k, 0), me = m.global->rank();
  if (k == 0)
    for (int c = 0; c < nd; ++c) {
      const Part q = part_of(m.count(i, j), nd, c);
      if (d2_from != me) x.irecv(*m.global, c, m.r2.data() + q.offset, q.count, MPI_DOUBLE, d2_from, 0);
      if (j != 0) x.irecv(*m.grd, c, m.r3.data() + q.offset, q.count, MPI_DOUBLE, j, 1);  // from P_{i,j,j}
    }
  if (diag)
    for (int c = 0; c < nd; ++c) {
      const Part q = part_of(m.count(i, k), nd, c);
      if (d2_to == me) copy_block(m.r2, m.d2, q.offset, q.count);
      else x.isend(*m.global, c, m.d2.data() + q.offset, q.count, MPI_DOUBLE, d2_to, 0);
    }
  if (j == k)
    for (int c = 0; c < nd; ++c) {
      const Part q = part_of(m.count(i, k), nd, c);
      x.wait(cubed[c]);
      if (k == 0) copy_block(m.r3, m.d3, q.offset, q.count);
      else x.isend(*m.grd, c, m.d3.data() + q.offset, q.count, MPI_DOUBLE, 0, 1);
    }
  x.wait_all();
  m.tl->mark(it, 5);
}

}  // namespace desync
