#include "matrix/spin_chain.hpp"

#include <random>
#include <stdexcept>

#include "matrix/combinatorics.hpp"

namespace desync {

namespace {

// Checked before any member is built from it (field_ would otherwise be sized from a negative L).
const SpinParams& checked(const SpinParams& p) {
  if (p.sites < 2 || p.sites > 62 || p.up < 0 || p.up > p.sites)
    throw std::invalid_argument("SpinChain: need 2 <= sites <= 62 and 0 <= up <= sites");
  return p;
}

}  // namespace

SpinChain::SpinChain(const SpinParams& p)
    : p_(checked(p)),
      rows_(comb::binomial(p.sites, p.up)),
      bonds_(p.sites - 1 + (p.boundary == LatticeBoundary::periodic && p.sites > 2 ? 1 : 0)),
      field_(static_cast<std::size_t>(p.sites), 0.0) {
  if (p.disorder != 0.0) {
    std::mt19937_64 rng(p.seed);
    std::uniform_real_distribution<double> h(-p.disorder, p.disorder);
    for (auto& x : field_) x = h(rng);
  }
}

int SpinChain::row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const {
  const int L = p_.sites;
  const std::uint64_t s = comb::colex_unrank(r, L, p_.up);
  int n = 0, antiparallel = 0;
  // Open bonds (j, j+1): moving the one set bit across the bond keeps the order of set bits,
  // so the rank changes by +-C(j, c) with c = set bits below j (no re-ranking needed).
  // Bit j of flips marks bond (j, j+1) antiparallel: GCC 12.2 -O2 miscompiles bool `bj != bk`.
  const std::uint64_t flips = s ^ (s >> 1);
  int below = 0;
  for (int j = 0; j + 1 < L; ++j) {
    const bool bj = (s >> j) & 1u;
    if ((flips >> j) & 1u) {
      ++antiparallel;
      const GlobalIndex delta = comb::binomial(j, below);
      cols[n] = bj ? r + delta : r - delta;
      vals[n++] = 0.5 * p_.jxy;
    }
    below += static_cast<int>(bj);
  }
  if (bonds_ == L) {  // periodic bond (L-1, 0) reorders the set bits: rank afresh
    if (((s >> (L - 1)) ^ s) & 1u) {
      ++antiparallel;
      cols[n] = comb::colex_rank(s ^ (std::uint64_t{1} << (L - 1)) ^ 1u);
      vals[n++] = 0.5 * p_.jxy;
    }
  }
  double diag = p_.jz * (bonds_ - 2.0 * antiparallel) / 4.0 + p_.bz * (p_.up - L / 2.0);
  for (int j = 0; j < L; ++j) diag += field_[static_cast<std::size_t>(j)] * (((s >> j) & 1u) ? 0.5 : -0.5);
  cols[n] = r;
  vals[n++] = diag;
  return normalize_row(cols, vals, n);
}

}  // namespace desync
