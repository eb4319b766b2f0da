#include "workload/placement_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "comm/node_layout.hpp"
#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workload/active_subset.hpp"

namespace desync {

std::string ranks_phrase(const Config& cfg, int active, int nranks) {
  if (active == nranks) return fmt::format("{} rank(s)", nranks);
  return fmt::format("{} active rank(s) of {} ([placement] active_ppn = {})", active, nranks, cfg.placement.active_ppn);
}

int planned_active_ranks(const PlacementConfig& pl, int nranks) {
  if (pl.active_ppn <= 0) return nranks;
  if (pl.ranks_per_node <= 0) return -1;
  int count = 0;
  for (int first = 0; first < nranks; first += static_cast<int>(pl.ranks_per_node))
    count += std::min<int>(static_cast<int>(pl.active_ppn), std::min<int>(static_cast<int>(pl.ranks_per_node), nranks - first));
  return count;
}

void placement_ranks(const Config& cfg, int nranks) {
  if (cfg.placement.ranks_per_node > nranks)
    throw DeckError(fmt::format("{}: error: [placement] ranks_per_node = {}: more than the run's {} rank(s); allowed: "
                                "0 (the nodes as they are) .. {}",
                                cfg.placement.ranks_per_node_pos.where, cfg.placement.ranks_per_node, nranks, nranks));
}

int active_ranks_in_layout(const Config& cfg, MPI_Comm comm, int* nranks) {
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  *nranks = static_cast<int>(l.node_of.size());
  return active_rank_count(l, static_cast<int>(cfg.placement.active_ppn));
}

namespace {
// Blocks of ceil(n / p) rows must leave none of the p block rows empty: (p - 1) ceil(n / p) < n.
// The n that pass do not form an interval (p = 6: 11, 12 pass, 13 .. 15 do not), so the error
// names the nearest ones.
bool blocks_fill(std::int64_t n, int p) { return (n + p - 1) / p * (p - 1) < n; }
}  // namespace

void check_blocks(const Config& cfg, const char* key, std::int64_t n, int p) {
  if (blocks_fill(n, p)) return;
  std::int64_t below = n - 1, above = n + 1;
  while (below > 0 && !blocks_fill(below, p)) --below;
  while (!blocks_fill(above, p)) ++above;
  const std::string_view k(key);
  const std::size_t dot = k.rfind('.');
  throw DeckError(fmt::format("{}: error: [{}] {} = {}: blocks of ceil(n / {}) = {} rows leave the last of the {} block rows "
                              "empty; allowed: n with (p - 1) ceil(n / p) < n, the nearest {}{}",
                              locate(cfg, k), k.substr(0, dot), k.substr(dot + 1), n, p, (n + p - 1) / p, p, below > 0 ? fmt::format("{} and ", below) : "", above));
}

}  // namespace desync
