#include "matrix/combinatorics.hpp"

#include <array>

namespace desync::comb {
namespace {

struct Table {
  std::array<std::array<std::int64_t, max_n + 1>, max_n + 1> c{};
  Table() {
    for (int n = 0; n <= max_n; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

std::int64_t binomial(int n, int k) {
  if (n < 0 || k < 0 || k > n || n > max_n) return 0;
  return table().c[n][k];
}

std::int64_t colex_rank(std::uint64_t mask) {
  std::int64_t r = 0;
  int k = 0;
  while (mask) {
    const int b = __builtin_ctzll(mask);
    r += binomial(b, ++k);
    mask &= mask - 1;
  }
  return r;
}

std::uint64_t colex_unrank(std::int64_t rank, int bits, int ones) {
  std::uint64_t mask = 0;
  for (int b = bits - 1; b >= 0 && ones > 0; --b) {
    const std::int64_t c = binomial(b, ones);
    if (rank >= c) {
      mask |= std::uint64_t{1} << b;
      rank -= c;
      --ones;
    }
  }
  return mask;
}

}  // namespace desync::comb
