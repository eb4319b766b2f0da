#pragma once
// Block sizes of the dense workloads on a process mesh (papers.md E.2; matvec2d, symmsquarecube):
// N is cut into p blocks of b = ceil(N / p) rows, the last holding the remainder (the modules'
// rank rules, workload/placement_rules.cpp, refuse an N that would leave a block empty).
#include <Kokkos_Macros.hpp>

#include <algorithm>
#include <cstdint>

namespace desync {

struct BlockCut {
  std::int64_t n = 0;
  int p = 1;
  std::int64_t b() const { return (n + p - 1) / p; }
  std::int64_t first(int i) const { return std::min<std::int64_t>(n, i * b()); }
  std::int64_t rows(int i) const { return std::min<std::int64_t>(n, (i + 1) * b()) - first(i); }
};

// Deterministic, well-mixed hash of two indices into [0, 1) (splitmix64 finalizer).
KOKKOS_INLINE_FUNCTION double unit_hash(std::uint64_t a, std::uint64_t b, std::uint64_t seed) {
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + a * 0xbf58476d1ce4e5b9ull + b * 0x94d049bb133111ebull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace desync
