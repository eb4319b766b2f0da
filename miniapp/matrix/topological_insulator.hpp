#pragma once
// TOPI: the 3-D topological insulator of matrices.md §5 (ScaMaC TopIns pattern, 4 orbitals per
// lattice site, 13 nonzeros per bulk row). row = 4 * site + orbital. The site number follows one
// of two orderings (TopiParams::ordering):
//  * scamac (matrices.md §5.2): blocks numbered x-block fastest, then y, then z; inside a block x
//    fastest, then y, then z; the last block in a direction may be thinner;
//  * node_block (topi-ordering.md): node (Nx,Ny,Nz) -> (Nx*my + Ny)*mz + Nz, each node block one
//    contiguous range; inside a block z fastest, then y, then x; blocks must tile exactly.
// Row generation is pure index arithmetic: no tables, no allocation, thread-safe.
#include <array>
#include <cstdint>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

using TopiExtent = std::array<std::int64_t, 3>;  // (x, y, z)

class TopologicalInsulator final : public MatrixGenerator {
 public:
  // Lattice L_d = block_d * nodes_d.
  explicit TopologicalInsulator(const TopiParams& p);
  // Lattice given explicitly; p.nodes is ignored. With the scamac ordering a block may not divide
  // the lattice (the last block is thinner; a block larger than the lattice is clipped to it);
  // the node_block ordering needs lattice_d % block_d == 0.
  TopologicalInsulator(const TopiParams& p, const TopiExtent& lattice);

  GlobalIndex rows() const override { return rows_; }
  int max_row_entries() const override { return 13; }  // diagonal + 6 neighbours x 2 orbitals
  bool is_complex() const override { return true; }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override;

  const TopiExtent& lattice() const { return lattice_; }
  // Site number of lattice point (X, Y, Z) in this generator's ordering, and back.
  GlobalIndex site_of(const TopiExtent& coord) const;
  TopiExtent coords_of(GlobalIndex site) const;
  // The random on-site potential V of lattice point (X, Y, Z), uniform in [-disorder/2,
  // disorder/2] and never exactly 0 when disorder != 0. A hash of (seed, X + Lx*(Y + Ly*Z)):
  // independent of the ordering and of which rank or thread asks.
  double potential(const TopiExtent& coord) const;

 private:
  struct Link {
    int orbital;
    Scalar value;
  };
  // Position of a site: block number k_d and offset j_d inside the block, per direction.
  struct Pos {
    std::array<std::int64_t, 3> k, j;
  };
  std::int64_t width(int d, std::int64_t k) const { return k + 1 == blocks_[d] ? last_width_[d] : block_[d]; }
  Pos decode(GlobalIndex site) const;
  GlobalIndex encode(const Pos& p) const;
  bool step_forward(int d, Pos& p) const;
  bool step_backward(int d, Pos& p) const;

  TopiParams p_;
  TopiExtent lattice_;
  TopiExtent block_;       // block extent, clipped to the lattice
  TopiExtent blocks_;      // number of blocks per direction, ceil(L / block)
  TopiExtent last_width_;  // extent of the last block per direction
  GlobalIndex sites_ = 0, rows_ = 0;
  GlobalIndex block_sites_ = 0;  // node_block: sites per node block
  bool diagonal_ = false;
  std::array<bool, 3> hops_{};      // hopping in direction d at all (L_d > 1 and t != 0)
  std::array<bool, 3> periodic_{};
  std::array<double, 4> mass_diag_{};  // mass * Gamma1
  // fwd_[d][a]: the two entries from orbital a to the neighbour at +e_d, -(t/2) M_d[b][a];
  // bwd_[d][a]: to the neighbour at -e_d, -(t/2) conj(M_d[a][b]).
  std::array<std::array<std::array<Link, 2>, 4>, 3> fwd_{}, bwd_{};
};

// Closed-form nnz (matrices.md §5.4), generalized to every lattice: the diagonal (nr entries if
// `diagonal`) plus, per direction d with hopping t != 0 and A_d = sites / L_d:
//   L_d = 1: 0;  open: 16 (L_d - 1) A_d;  periodic, L_d >= 3: 16 L_d A_d;
//   periodic, L_d = 2: 8 A_d (the two neighbours coincide, -(t/2)(M_d + M_d^H) = -t Gamma1 is
//   diagonal: one entry per row).
// With every L_d >= 3 and the diagonal present this is 13 nr - sum over open d of 16 A_d.
GlobalIndex topi_nnz(const TopiExtent& lattice, const std::array<LatticeBoundary, 3>& boundary, double t,
                     bool diagonal);
// The same for TopiParams (L_d = block_d * nodes_d). The diagonal counts as present iff mass != 0
// or disorder != 0; exact only unless some mass * (+-1) + V_site happens to be exactly 0, which
// needs |mass| <= disorder/2 and a 2^-53 coincidence.
GlobalIndex topi_nnz(const TopiParams& p);

}  // namespace desync
