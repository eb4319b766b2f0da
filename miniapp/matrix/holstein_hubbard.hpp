#pragma once
// HHQ: the Holstein-Hubbard ring of matrices.md §4 (a reconstruction from the published counts).
// `up` + `down` electrons on L sites (hopping -t over the L-1 chain bonds, plus the ring bond
// (L-1, 0) when periodic; Hubbard U), and at most N_ph phonons in M = L-1 Einstein modes, mode m
// on site m, coupled by -g*omega0 * n_m (b_m^+ + b_m).
//
// Row index: electron index e = colex(up mask) * C(L, down) + colex(down mask); phonon index p in
// the graded-head order of PhononBasis; pe: row = e*P + p, ep: row = p*E + e.
#include <cstdint>
#include <vector>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"
#include "matrix/phonon_basis.hpp"

namespace desync {

class HolsteinHubbard final : public MatrixGenerator {
 public:
  // Throws std::invalid_argument unless 3 <= sites <= 62, 0 <= up, down <= sites, phonons >= 0,
  // phonons + sites - 1 <= 64, the row count fits in 63 bits, u > 0 and omega0 > 0 (so that the
  // diagonal vanishes exactly on the rows without double occupancy and phonons, matrices.md
  // §4.2), and t, g are finite.
  explicit HolsteinHubbard(const HhqParams& p);

  GlobalIndex rows() const override { return rows_; }
  int max_row_entries() const override { return 1 + 2 * bonds_ + 2 * (p_.sites - 1); }
  bool is_complex() const override { return false; }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override;

  GlobalIndex electron_states() const { return electron_states_; }  // E = C(L,up) C(L,down)
  const PhononBasis& phonon_basis() const { return phonons_; }      // P = C(N_ph+M, M)

 private:
  GlobalIndex binom(int n, int k) const {
    return (k < 0 || k > n) ? 0
                            : binom_[static_cast<std::size_t>(n) * (static_cast<std::size_t>(p_.sites) + 1) +
                                     static_cast<std::size_t>(k)];
  }
  std::uint64_t unrank_mask(GlobalIndex rank, int ones) const;
  GlobalIndex rank_mask(std::uint64_t mask) const;
  struct RowSink;
  // Emits the hops of one spin species (mask s of rank `rank`, `ones` electrons); each moves the
  // row by (new rank - rank) * stride.
  void hops(std::uint64_t s, GlobalIndex rank, int ones, GlobalIndex stride, GlobalIndex r, RowSink& out) const;
  // Emits the electron-phonon terms of row r, whose phonon state `ph` has occupations occ.
  void couplings(std::uint64_t su, std::uint64_t sd, GlobalIndex ph, const int* occ, GlobalIndex r, RowSink& out) const;

  HhqParams p_;
  int bonds_;
  GlobalIndex dn_states_;        // C(L, down)
  GlobalIndex electron_states_;  // E
  PhononBasis phonons_;
  GlobalIndex phonon_states_;  // P
  GlobalIndex rows_;
  GlobalIndex stride_up_, stride_dn_, stride_ph_;  // row change per unit change of each index
  std::vector<GlobalIndex> binom_;                 // C(n, k), n, k <= L
  std::vector<double> sqrt_;                       // sqrt(q), q = 0..N_ph
};

// Closed forms of matrices.md §4.6 (exact for any valid parameters: t == 0 or g == 0 drop the
// hopping or coupling entries, which the formulas account for). Throw like the constructor.
GlobalIndex hhq_rows(const HhqParams& p);
GlobalIndex hhq_closed_form_nnz(const HhqParams& p);
// max |i - j| over the stored entries, i.e. the largest jump of the spin-up, spin-down and phonon
// index times its stride. The electron jumps come from closed forms and a small O(L^3) search;
// the phonon jump enumerates the phonon space, O(P * (M + N_ph)) work (about 10^6 operations for
// HHQ-large), independent of E.
GlobalIndex hhq_bandwidth(const HhqParams& p);

}  // namespace desync
