#pragma once
// The miniFE-like finite-element matrix (papers.md D.3; docs/method.md, section 10): the
// Laplacian on a box of nx x ny x nz unit-cube trilinear hexahedral elements, one unknown per
// node ((nx+1)(ny+1)(nz+1) rows). Element stiffness of the unit cube, K_ij = integral of
// grad N_i . grad N_j: 1/3 on the diagonal, 0 between nodes sharing an edge, -1/12 across a face
// diagonal and across the body diagonal. Assembled on an interior node: 8/3 on the diagonal, 0 to
// the 6 axis neighbours, -1/6 to the 12 face-diagonal and -1/12 to the 8 corner neighbours (row
// sum 0). Dirichlet boundary (every node on the box surface) by symmetric elimination, as
// miniFE's impose_dirichlet: a boundary row is the identity, an interior row's entries in
// boundary columns are 0. Like miniFE, the full 27-point pattern is stored, zeros included
// (matrices.md section 1's zero dropping is deliberately not applied), so an interior row has 27
// entries and the matrix is symmetric positive definite.
//
// Numbering: the nodes are split into px x py x pz boxes (`grid`; per axis N/p nodes, the first
// N mod p boxes one more), numbered box after box (box index x fastest), x fastest inside a box.
// With grid [1, 1, 1] this is the plain lexicographic order.
#include <array>
#include <vector>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

class Minife final : public MatrixGenerator {
 public:
  explicit Minife(const MinifeParams& p);
  GlobalIndex rows() const override { return rows_; }
  int max_row_entries() const override { return 27; }
  bool is_complex() const override { return false; }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override;

  // Node coordinates of row r, and the row of a node.
  std::array<GlobalIndex, 3> node(GlobalIndex r) const;
  GlobalIndex row_of(const std::array<GlobalIndex, 3>& n) const;
  bool on_boundary(const std::array<GlobalIndex, 3>& n) const;
  // First row of every box, and rows() at the end (px py pz + 1 entries).
  const std::vector<GlobalIndex>& box_starts() const { return box_start_; }

 private:
  int piece(int d, GlobalIndex i) const;           // box index along axis d of node coordinate i
  GlobalIndex piece_start(int d, int b) const;
  GlobalIndex piece_size(int d, int b) const;
  std::array<GlobalIndex, 3> n_{}, grid_{};        // nodes and boxes per axis
  std::vector<GlobalIndex> box_start_;
  GlobalIndex rows_ = 0;
};

}  // namespace desync
