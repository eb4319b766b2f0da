#pragma once
// The phonon space of HHQ (matrices.md §4.3): occupations p_0 .. p_{M-1} >= 0 of M modes with
// p_0 + ... + p_{M-1} <= N, numbered in "graded head" order. With K = ceil(M/2) head modes and
// head sum h = p_0 + ... + p_{K-1}, states are sorted by h ascending, then lexicographically
// with p_0 most significant. rank/unrank need only binomials (a small table up to C(N+M, M))
// and the N+2 offsets of the head-sum groups.
//
// Inside the group of head sum h the state splits into a head (K modes summing to exactly h)
// and a tail (M-K modes summing to at most N-h); the lexicographic order makes
//   rank = offset(h) + head_rank * tail_count(h) + tail_rank,
// where head_rank and tail_rank are lexicographic ranks in their own (smaller) spaces.
#include <cassert>
#include <vector>

#include "matrix/generator.hpp"

namespace desync {

class PhononBasis {
 public:
  static constexpr int max_modes = 63;

  // Throws std::invalid_argument unless 1 <= modes <= max_modes, max_total >= 0 and
  // modes + max_total <= 64 (the binomial table's range).
  PhononBasis(int modes, int max_total);

  int modes() const { return modes_; }
  int max_total() const { return total_; }
  int head_modes() const { return head_; }                   // K = ceil(M/2)
  GlobalIndex size() const { return group_offset_.back(); }  // C(N+M, M)

  // Position of the occupations occ[0..M-1] (which must be a state of this space). O(M).
  GlobalIndex rank(const int* occ) const;
  // Inverse of rank: writes occ[0..M-1]. index must be in [0, size()). O(M + N).
  void unrank(GlobalIndex index, int* occ) const;

  // For every mode m at once, in O(M) total: up[m] = rank(occ + e_m), or -1 when the total is
  // already N; down[m] = rank(occ - e_m), or -1 when occ[m] == 0. occ must be a state.
  void neighbour_ranks(const int* occ, GlobalIndex* up, GlobalIndex* down) const;

 private:
  // C(n, k) for -2 <= n <= N+M and 0 <= k <= M, 0 unless k <= n: the table has two rows of
  // zeros for n = -2, -1 (the shifted terms of neighbour_ranks reach n = -1), so no branches.
  GlobalIndex c(int n, int k) const {
    assert(n >= -pad && n <= total_ + modes_ && k >= 0 && k <= modes_);
    return binom_[static_cast<std::size_t>(n + pad) * stride_ + static_cast<std::size_t>(k)];
  }
  static constexpr int pad = 2;
  GlobalIndex tail_count(int h) const { return c(total_ - h + modes_ - head_, modes_ - head_); }

  int modes_, total_, head_;
  std::size_t stride_;
  std::vector<GlobalIndex> binom_;         // C(n, k) for -2 <= n <= N+M, k <= M
  std::vector<GlobalIndex> group_offset_;  // first rank of head sum h, h = 0..N+1
};

}  // namespace desync
