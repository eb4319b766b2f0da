#pragma once
// Binomial coefficients and the colex rank of a bitmask (matrices.md §1.1): the only tables the
// spin and Holstein-Hubbard generators need, so any rank can generate any row.
#include <cstdint>

namespace desync::comb {

inline constexpr int max_n = 64;

// C(n, k) for 0 <= n <= max_n; 0 unless 0 <= k <= n. Exact in 64 bits up to C(64, 32)'s
// neighbours used here (L <= 40 sites).
std::int64_t binomial(int n, int k);

// Position of `mask` among all masks with the same popcount, sorted by numeric value:
// sum over the set bits b_1 < ... < b_n of C(b_k, k).
std::int64_t colex_rank(std::uint64_t mask);

// Inverse of colex_rank for masks of `ones` set bits below bit `bits`.
std::uint64_t colex_unrank(std::int64_t rank, int bits, int ones);

}  // namespace desync::comb
