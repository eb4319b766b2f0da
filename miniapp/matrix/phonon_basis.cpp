#include "matrix/phonon_basis.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <stdexcept>

#include "matrix/combinatorics.hpp"

// Counting used throughout (hockey-stick identity):
//  * head mode m, remaining head sum S (including p_m), k = K-1-m modes after it: the states
//    whose p_m is below p number  C(S+k, k) - C(S-p+k, k)  (compositions of the rest);
//  * tail mode m, remaining budget R (including p_m), k = M-1-m modes after it: the states whose
//    p_m is below p number  C(R+k+1, k+1) - C(R-p+k+1, k+1)  (rest sums to at most R - v).
// The head count is in units of whole tails (tail_count(h) states each).

namespace desync {

PhononBasis::PhononBasis(int modes, int max_total)
    : modes_(modes), total_(max_total), head_((modes + 1) / 2), stride_(static_cast<std::size_t>(modes) + 1) {
  if (modes < 1 || modes > max_modes || max_total < 0 || modes + max_total > comb::max_n)
    throw std::invalid_argument("PhononBasis: need 1 <= modes <= 63, phonons >= 0 and modes + phonons <= 64");
  const int nmax = modes_ + total_;
  binom_.assign(static_cast<std::size_t>(nmax + 1 + pad) * stride_, 0);
  for (int n = 0; n <= nmax; ++n)
    for (int k = 0; k <= modes_; ++k)
      binom_[static_cast<std::size_t>(n + pad) * stride_ + static_cast<std::size_t>(k)] = comb::binomial(n, k);
  group_offset_.assign(static_cast<std::size_t>(total_) + 2, 0);
  for (int a = 0; a <= total_; ++a)
    group_offset_[static_cast<std::size_t>(a) + 1] =
        group_offset_[static_cast<std::size_t>(a)] + c(a + head_ - 1, head_ - 1) * tail_count(a);
}

GlobalIndex PhononBasis::rank(const int* occ) const {
  int h = 0;
  for (int m = 0; m < head_; ++m) h += occ[m];
  GlobalIndex head_rank = 0, tail_rank = 0;
  int s = h;
  for (int m = 0; m < head_; ++m) {
    const int k = head_ - 1 - m;
    head_rank += c(s + k, k) - c(s - occ[m] + k, k);
    s -= occ[m];
  }
  int r = total_ - h;
  for (int m = head_; m < modes_; ++m) {
    const int k1 = modes_ - m;
    tail_rank += c(r + k1, k1) - c(r - occ[m] + k1, k1);
    r -= occ[m];
  }
  return group_offset_[static_cast<std::size_t>(h)] + head_rank * tail_count(h) + tail_rank;
}

void PhononBasis::unrank(GlobalIndex index, int* occ) const {
  assert(index >= 0 && index < size());
  // Groups are never empty, so the offsets increase strictly.
  const int h =
      static_cast<int>(std::upper_bound(group_offset_.begin(), group_offset_.end(), index) - group_offset_.begin()) - 1;
  const GlobalIndex rest = index - group_offset_[static_cast<std::size_t>(h)];
  const GlobalIndex tails = tail_count(h);
  GlobalIndex head_rank = rest / tails;
  GlobalIndex tail_rank = rest - head_rank * tails;
  int s = h;
  for (int m = 0; m + 1 < head_; ++m) {
    const int k = head_ - 1 - m;  // head modes after m
    int v = 0;
    for (; v < s; ++v) {
      const GlobalIndex cnt = c(s - v + k - 1, k - 1);
      if (head_rank < cnt) break;
      head_rank -= cnt;
    }
    occ[m] = v;
    s -= v;
  }
  occ[head_ - 1] = s;
  int r = total_ - h;
  for (int m = head_; m < modes_; ++m) {
    const int k = modes_ - 1 - m;  // tail modes after m
    int v = 0;
    for (; v < r; ++v) {
      const GlobalIndex cnt = c(r - v + k, k);
      if (tail_rank < cnt) break;
      tail_rank -= cnt;
    }
    occ[m] = v;
    r -= v;
  }
}

void PhononBasis::neighbour_ranks(const int* occ, GlobalIndex* up, GlobalIndex* down) const {
  // Changing p_m by d in {-1, +1}:
  //  * head mode m: h -> h+d. Head modes before m see their remaining sum S shifted by d, those
  //    after m see it unchanged, and every tail mode sees its budget R shifted by -d.
  //  * tail mode m: the head is untouched; tail modes before m are unchanged, those after m see
  //    their budget shifted by -d.
  // Each mode's term is a difference of two binomials; with the six values C(x+d+k, k) for
  // x in {S or R, S-p or R-p} and d in {-1, 0, 1}, a forward pass collects the prefix sums and a
  // backward pass adds the suffix sums, so every neighbour costs O(1).
  constexpr int cap = max_modes;
  std::array<GlobalIndex, cap> head_same;              // head term, unchanged
  std::array<GlobalIndex, cap> tail_fewer, tail_more;  // tail term with budget R-1 / R+1
  int h = 0;
  for (int m = 0; m < head_; ++m) h += occ[m];
  int n = h;
  for (int m = head_; m < modes_; ++m) n += occ[m];
  const bool full = n >= total_;

  // Forward: up/down hold the prefix part plus the mode's own term for now.
  GlobalIndex before_up = 0, before_down = 0, head_all = 0;
  int s = h;
  for (int m = 0; m < head_; ++m) {
    const auto i = static_cast<std::size_t>(m);
    const int k = head_ - 1 - m, p = occ[m];
    const GlobalIndex a_lo = c(s - 1 + k, k), a = c(s + k, k), a_hi = c(s + 1 + k, k);
    const GlobalIndex b_lo = c(s - p - 1 + k, k), b = c(s - p + k, k), b_hi = c(s - p + 1 + k, k);
    head_same[i] = a - b;
    head_all += a - b;
    up[m] = before_up + a_hi - b;      // own (S+1, p+1)
    down[m] = before_down + a_lo - b;  // own (S-1, p-1)
    before_up += a_hi - b_hi;          // seen by later modes' up: S+1, p unchanged
    before_down += a_lo - b_lo;
    s -= p;
  }
  GlobalIndex before_same = 0;
  int r = total_ - h;
  for (int m = head_; m < modes_; ++m) {
    const auto i = static_cast<std::size_t>(m);
    const int k1 = modes_ - m, p = occ[m];
    const GlobalIndex a_lo = c(r - 1 + k1, k1), a = c(r + k1, k1), a_hi = c(r + 1 + k1, k1);
    const GlobalIndex b_lo = c(r - p - 1 + k1, k1), b = c(r - p + k1, k1), b_hi = c(r - p + 1 + k1, k1);
    tail_fewer[i] = a_lo - b_lo;
    tail_more[i] = a_hi - b_hi;
    up[m] = before_same + a - b_lo;    // own (R, p+1)
    down[m] = before_same + a - b_hi;  // own (R, p-1)
    before_same += a - b;
    r -= p;
  }

  // Backward: add the suffix sums.
  const GlobalIndex base = group_offset_[static_cast<std::size_t>(h)] + head_all * tail_count(h);
  GlobalIndex after_fewer = 0, after_more = 0;
  for (int m = modes_ - 1; m >= head_; --m) {
    const auto i = static_cast<std::size_t>(m);
    up[m] = full ? -1 : base + up[m] + after_fewer;
    down[m] = occ[m] == 0 ? -1 : base + down[m] + after_more;
    after_fewer += tail_fewer[i];
    after_more += tail_more[i];
  }
  GlobalIndex after_same = 0;
  for (int m = head_ - 1; m >= 0; --m) {
    const auto i = static_cast<std::size_t>(m);
    up[m] =
        full ? -1
             : group_offset_[static_cast<std::size_t>(h) + 1] + (up[m] + after_same) * tail_count(h + 1) + after_fewer;
    down[m] = occ[m] == 0 ? -1
                          : group_offset_[static_cast<std::size_t>(h) - 1] +
                                (down[m] + after_same) * tail_count(h - 1) + after_more;
    after_same += head_same[i];
  }
}

}  // namespace desync
