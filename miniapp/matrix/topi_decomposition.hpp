#pragma once
// The papers' TOPI domain decompositions M1-M9 (papers.md A.4, Table 7(a)): node grids
// mx-my-mz for n nodes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace desync {

// Grid of decomposition "M1".."M9" for n nodes, or nullopt if that decomposition cannot serve n
// (M4-M6 need a square n, M7-M9 a multiple of 8 with n/8 >= 1).
std::optional<std::array<std::int64_t, 3>> topi_decomposition(const std::string& name, std::int64_t n);

// What each decomposition requires, for error messages.
std::string topi_decomposition_rule(const std::string& name);

}  // namespace desync
