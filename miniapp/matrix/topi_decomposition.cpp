#include "matrix/topi_decomposition.hpp"

#include <cmath>

namespace desync {
namespace {

std::int64_t exact_sqrt(std::int64_t n) {
  auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
  return r * r == n ? r : -1;
}

}  // namespace

std::optional<std::array<std::int64_t, 3>> topi_decomposition(const std::string& name, std::int64_t n) {
  if (n < 1) return std::nullopt;
  const std::int64_t s = exact_sqrt(n), e = n % 8 == 0 ? n / 8 : -1;
  using G = std::array<std::int64_t, 3>;
  if (name == "M1") return G{1, 1, n};
  if (name == "M2") return G{1, n, 1};
  if (name == "M3") return G{n, 1, 1};
  if (s > 0 && name == "M4") return G{1, s, s};
  if (s > 0 && name == "M5") return G{s, 1, s};
  if (s > 0 && name == "M6") return G{s, s, 1};
  // The papers write sqrt(n) for M7-M9, which only multiplies to n at n = 64; n/8 does in general.
  if (e > 0 && name == "M7") return G{2, 4, e};
  if (e > 0 && name == "M8") return G{2, e, 4};
  if (e > 0 && name == "M9") return G{e, 2, 4};
  return std::nullopt;
}

std::string topi_decomposition_rule(const std::string& name) {
  if (name == "M1" || name == "M2" || name == "M3") return "any node count";
  if (name == "M4" || name == "M5" || name == "M6") return "a square node count (1, 4, 9, 16, ..., 64, ...)";
  if (name == "M7" || name == "M8" || name == "M9") return "a node count divisible by 8";
  return "M1..M9";
}

}  // namespace desync
