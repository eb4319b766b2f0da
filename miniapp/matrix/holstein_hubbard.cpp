#include "matrix/holstein_hubbard.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "matrix/combinatorics.hpp"

namespace desync {
namespace {

using Wide = __int128;
constexpr Wide index_max = std::numeric_limits<GlobalIndex>::max();

GlobalIndex narrow(Wide x, const char* what) {
  if (x < 0 || x > index_max) throw std::overflow_error(std::string("HHQ: ") + what + " does not fit in 63 bits");
  return static_cast<GlobalIndex>(x);
}

const HhqParams& checked(const HhqParams& p) {
  const auto fail = [](const std::string& why) { throw std::invalid_argument("HolsteinHubbard: " + why); };
  if (p.sites < 3 || p.sites > 62) fail("need 3 <= sites <= 62 (a ring of 2 sites would double its bond)");
  if (p.up < 0 || p.up > p.sites || p.down < 0 || p.down > p.sites) fail("need 0 <= up, down <= sites");
  if (p.phonons < 0) fail("need phonons >= 0");
  if (p.phonons + p.sites - 1 > comb::max_n) fail("need phonons + sites - 1 <= 64");
  if (!(p.u > 0.0) || !std::isfinite(p.u))
    fail("need finite u > 0 (the diagonal may vanish only without double occupancy and phonons)");
  if (!(p.omega0 > 0.0) || !std::isfinite(p.omega0)) fail("need finite omega0 > 0 (same reason as u)");
  if (!std::isfinite(p.t) || !std::isfinite(p.g)) fail("need finite t and g");
  const Wide rows = Wide{comb::binomial(p.sites, p.up)} * comb::binomial(p.sites, p.down) *
                    comb::binomial(p.phonons + p.sites - 1, p.sites - 1);
  if (rows > index_max) fail("the matrix would have 2^63 rows or more");
  return p;
}

// Largest |rank change| of a colex-ranked mask of `ones` bits out of L under one hop.
//  * Bond (j, j+1): the rank moves by C(j, c), c = electrons below j, which can be anything in
//    [max(0, ones-1-(L-2-j)), min(j, ones-1)].
//  * Ring bond (L-1, 0): moving the top electron from L-1 to 0 lowers the rank by
//    C(L-1, ones) - sum_k [C(b_k, k+1) - C(b_k, k)] over the other electrons 1 <= b_1 < ... <
//    b_{ones-1} <= L-2, so the largest jump minimises that sum (a small dynamic programme).
GlobalIndex max_hop_jump(int L, int ones, bool periodic) {
  if (ones < 1 || ones > L - 1) return 0;
  GlobalIndex best = 0;
  for (int j = 0; j + 1 < L; ++j)
    for (int c = std::max(0, ones - 1 - (L - 2 - j)); c <= std::min(j, ones - 1); ++c)
      best = std::max(best, comb::binomial(j, c));
  if (periodic) {
    // least[b] = minimal sum over the first k electrons with b_k = b (k grows per pass).
    constexpr Wide none = index_max;
    std::vector<Wide> least(static_cast<std::size_t>(L), none), next(static_cast<std::size_t>(L), none);
    if (ones == 1) {
      best = std::max(best, comb::binomial(L - 1, 1));
    } else {
      for (int b = 1; b <= L - 2; ++b) least[b] = Wide{comb::binomial(b, 2)} - comb::binomial(b, 1);
      for (int k = 2; k <= ones - 1; ++k) {
        Wide prefix = none;
        for (int b = 1; b <= L - 2; ++b) {
          next[b] = prefix == none ? none : prefix + comb::binomial(b, k + 1) - comb::binomial(b, k);
          prefix = std::min(prefix, least[b]);
        }
        least.swap(next);
      }
      const Wide lowest = *std::min_element(least.begin(), least.end());
      best = std::max(best, narrow(Wide{comb::binomial(L - 1, ones)} - lowest, "ring hop jump"));
    }
  }
  return best;
}

}  // namespace

HolsteinHubbard::HolsteinHubbard(const HhqParams& p)
    : p_(checked(p)),
      bonds_(p.sites - 1 + (p.boundary == LatticeBoundary::periodic ? 1 : 0)),
      dn_states_(comb::binomial(p.sites, p.down)),
      electron_states_(comb::binomial(p.sites, p.up) * dn_states_),
      phonons_(p.sites - 1, p.phonons),
      phonon_states_(phonons_.size()),
      rows_(electron_states_ * phonon_states_),
      binom_(static_cast<std::size_t>(p.sites + 1) * static_cast<std::size_t>(p.sites + 1)),
      sqrt_(static_cast<std::size_t>(p.phonons) + 1) {
  if (p_.order == PhononOrder::pe) {
    stride_ph_ = 1;
    stride_dn_ = phonon_states_;
    stride_up_ = dn_states_ * phonon_states_;
  } else {
    stride_dn_ = 1;
    stride_up_ = dn_states_;
    stride_ph_ = electron_states_;
  }
  for (int n = 0; n <= p_.sites; ++n)
    for (int k = 0; k <= p_.sites; ++k)
      binom_[static_cast<std::size_t>(n) * static_cast<std::size_t>(p_.sites + 1) + static_cast<std::size_t>(k)] =
          comb::binomial(n, k);
  for (std::size_t q = 0; q < sqrt_.size(); ++q) sqrt_[q] = std::sqrt(static_cast<double>(q));
}

std::uint64_t HolsteinHubbard::unrank_mask(GlobalIndex rank, int ones) const {
  std::uint64_t mask = 0;
  for (int b = p_.sites - 1; b >= 0 && ones > 0; --b) {
    const GlobalIndex c = binom(b, ones);
    if (rank >= c) {
      mask |= std::uint64_t{1} << b;
      rank -= c;
      --ones;
    }
  }
  return mask;
}

GlobalIndex HolsteinHubbard::rank_mask(std::uint64_t mask) const {
  GlobalIndex r = 0;
  for (int k = 1; mask; ++k, mask &= mask - 1) r += binom(__builtin_ctzll(mask), k);
  return r;
}

// Builds a row in ascending column order, so that normalize_row only verifies it: entries left
// of the diagonal are appended in ascending order from the front of the caller's buffer, entries
// right of it are pushed in descending order from the back, and finish() joins the two around
// the diagonal. Callers emit the index with the largest stride first (its jumps exceed all
// jumps of the smaller strides), and within one index in the order argued at each call; if
// that order were ever wrong, normalize_row still sorts, so it matters for speed only.
struct HolsteinHubbard::RowSink {
  GlobalIndex* cols;
  Scalar* vals;
  int capacity;
  int left_n = 0, right_n = 0;
  void left(GlobalIndex c, double v) {
    cols[left_n] = c;
    vals[left_n++] = v;
  }
  void right(GlobalIndex c, double v) {
    ++right_n;
    cols[capacity - right_n] = c;
    vals[capacity - right_n] = v;
  }
  int finish(GlobalIndex r, double diag) {
    if (diag != 0.0) left(r, diag);
    for (int k = capacity - right_n; k < capacity; ++k) {
      cols[left_n] = cols[k];
      vals[left_n++] = vals[k];
    }
    return normalize_row(cols, vals, left_n);
  }
};

void HolsteinHubbard::hops(std::uint64_t s, GlobalIndex rank, int ones, GlobalIndex stride, GlobalIndex r,
                           RowSink& out) const {
  const int L = p_.sites;
  // Ring bond (L-1, 0) first: the other ones-1 electrons all sit strictly between its sites.
  // Moving the top electron to site 0 is (typically) the largest drop of the rank, moving an
  // electron from 0 to L-1 the largest rise.
  if (bonds_ == L && (((s >> (L - 1)) ^ s) & 1u)) {
    const GlobalIndex c = r + (rank_mask(s ^ (std::uint64_t{1} << (L - 1)) ^ 1u) - rank) * stride;
    const double v = (ones - 1) % 2 ? p_.t : -p_.t;
    if (s & 1u)
      out.right(c, v);
    else
      out.left(c, v);
  }
  // Chain bond (j, j+1): nobody sits between the sites (sign +1), and moving the electron keeps
  // the order of the set bits, so the rank moves by C(j, electrons below j). That jump grows
  // with j, so walking j downwards yields rises in descending and drops in ascending order.
  int below = ones - static_cast<int>((s >> (L - 1)) & 1u) - static_cast<int>((s >> (L - 2)) & 1u);
  for (int j = L - 2; j >= 0; --j) {
    const unsigned bj = (s >> j) & 1u, bk = (s >> (j + 1)) & 1u;
    if (bj != bk) {
      const GlobalIndex delta = binom(j, below) * stride;
      if (bj)
        out.right(r + delta, -p_.t);
      else
        out.left(r - delta, -p_.t);
    }
    if (j > 0) below -= static_cast<int>((s >> (j - 1)) & 1u);
  }
}

void HolsteinHubbard::couplings(std::uint64_t su, std::uint64_t sd, GlobalIndex ph, const int* occ, GlobalIndex r,
                                RowSink& out) const {
  // Electron-phonon terms on the occupied sites that carry a mode (site L-1 has none). In the
  // graded-head order p - e_m rises and p + e_m falls with m, so ascending m emits both sides in
  // the sink's order.
  const int modes = p_.sites - 1;
  const std::uint64_t coupled = (su | sd) & ((std::uint64_t{1} << modes) - 1);
  if (coupled == 0 || p_.phonons == 0) return;
  std::array<GlobalIndex, PhononBasis::max_modes> raised, lowered;
  phonons_.neighbour_ranks(occ, raised.data(), lowered.data());
  const double coupling = -p_.g * p_.omega0;
  for (std::uint64_t left = coupled; left; left &= left - 1) {
    const int m = __builtin_ctzll(left);
    const auto i = static_cast<std::size_t>(m);
    const double nm = static_cast<double>(((su >> m) & 1u) + ((sd >> m) & 1u));
    if (lowered[i] >= 0)
      out.left(r + (lowered[i] - ph) * stride_ph_, coupling * nm * sqrt_[static_cast<std::size_t>(occ[i])]);
    if (raised[i] >= 0)
      out.right(r + (raised[i] - ph) * stride_ph_, coupling * nm * sqrt_[static_cast<std::size_t>(occ[i]) + 1]);
  }
}

int HolsteinHubbard::row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const {
  GlobalIndex e, ph;
  if (p_.order == PhononOrder::pe) {
    e = r / phonon_states_;
    ph = r - e * phonon_states_;
  } else {
    ph = r / electron_states_;
    e = r - ph * electron_states_;
  }
  const GlobalIndex iu = e / dn_states_, id = e - iu * dn_states_;
  const std::uint64_t su = unrank_mask(iu, p_.up), sd = unrank_mask(id, p_.down);
  std::array<int, PhononBasis::max_modes> occ;
  phonons_.unrank(ph, occ.data());
  int nph = 0;
  for (int m = 0; m + 1 < p_.sites; ++m) nph += occ[static_cast<std::size_t>(m)];

  // Largest stride first: pe = (up, down, phonon), ep = (phonon, up, down).
  RowSink out{cols, vals, max_row_entries()};
  if (p_.order == PhononOrder::pe) {
    hops(su, iu, p_.up, stride_up_, r, out);
    hops(sd, id, p_.down, stride_dn_, r, out);
    couplings(su, sd, ph, occ.data(), r, out);
  } else {
    couplings(su, sd, ph, occ.data(), r, out);
    hops(su, iu, p_.up, stride_up_, r, out);
    hops(sd, id, p_.down, stride_dn_, r, out);
  }
  return out.finish(r, p_.u * __builtin_popcountll(su & sd) + p_.omega0 * nph);
}

GlobalIndex hhq_rows(const HhqParams& p) {
  checked(p);
  return comb::binomial(p.sites, p.up) * comb::binomial(p.sites, p.down) *
         comb::binomial(p.phonons + p.sites - 1, p.sites - 1);
}

GlobalIndex hhq_closed_form_nnz(const HhqParams& p) {
  const GlobalIndex nr = hhq_rows(p);
  const int L = p.sites, M = L - 1, nu = p.up, nd = p.down, N = p.phonons;
  const auto C = [](int n, int k) { return Wide{comb::binomial(n, k)}; };
  const Wide E = C(L, nu) * C(L, nd), P = C(N + M, M);
  const Wide bonds = L - 1 + (p.boundary == LatticeBoundary::periodic ? 1 : 0);
  // Hopping entries of the electron space: a bond is hoppable for 2 C(L-2, n-1) masks of n.
  const Wide hopping = p.t == 0.0 ? 0 : bonds * (2 * C(L - 2, nu - 1) * C(L, nd) + 2 * C(L - 2, nd - 1) * C(L, nu));
  // (electron state, mode) pairs with site m occupied, times the phonon transitions per mode
  // (b_m where p_m > 0, b_m^+ where the total is below N: C(N-1+M, M) states each).
  const Wide coupled = p.g == 0.0 ? 0 : M * (E - C(L - 1, nu) * C(L - 1, nd));
  const Wide transitions = 2 * C(N - 1 + M, M);
  // Zero diagonals: no double occupancy and no phonon.
  const Wide zero_diagonal = C(L, nu) * C(L - nu, nd);
  return narrow(Wide{nr} - zero_diagonal + P * hopping + coupled * transitions, "nnz");
}

GlobalIndex hhq_bandwidth(const HhqParams& p) {
  const HolsteinHubbard h(p);
  const bool periodic = p.boundary == LatticeBoundary::periodic;
  const GlobalIndex E = h.electron_states(), P = h.phonon_basis().size(), Cdn = comb::binomial(p.sites, p.down);
  GlobalIndex up_jump = 0, dn_jump = 0, ph_jump = 0;
  if (p.t != 0.0) {
    up_jump = max_hop_jump(p.sites, p.up, periodic);
    dn_jump = max_hop_jump(p.sites, p.down, periodic);
  }
  if (p.g != 0.0 && p.up + p.down > 0 && p.phonons > 0) {
    // Every mode's site can be occupied, so every b_m^+ transition appears in some row.
    const PhononBasis& b = h.phonon_basis();
    std::array<int, PhononBasis::max_modes> occ;
    std::array<GlobalIndex, PhononBasis::max_modes> raised, lowered;
    for (GlobalIndex i = 0; i < P; ++i) {
      b.unrank(i, occ.data());
      b.neighbour_ranks(occ.data(), raised.data(), lowered.data());
      for (int m = 0; m < b.modes(); ++m)
        if (raised[static_cast<std::size_t>(m)] >= 0)
          ph_jump = std::max(ph_jump, raised[static_cast<std::size_t>(m)] - i);
    }
  }
  if (p.order == PhononOrder::pe) return std::max({up_jump * Cdn * P, dn_jump * P, ph_jump});
  return std::max({up_jump * Cdn, dn_jump, ph_jump * E});
}

}  // namespace desync
