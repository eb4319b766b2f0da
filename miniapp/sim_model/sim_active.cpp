#include "sim_model/sim_active.hpp"

#include <algorithm>

namespace desync::sim {

ModelledActive modelled_active(const Platform& platform, int ranks, int active_ppn) {
  ModelledActive a;
  a.ranks_per_node = std::max(1, std::min(platform.ranks_per_node, ranks));
  a.nodes = (ranks + a.ranks_per_node - 1) / a.ranks_per_node;
  a.per_node = active_ppn > 0 ? std::min(active_ppn, a.ranks_per_node) : a.ranks_per_node;
  for (int r = 0; r < ranks; ++r)
    if (r % a.ranks_per_node < a.per_node) a.active.push_back(r);
  return a;
}

void place_ranks(Program& p, int ranks, const ModelledActive& a) {
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    const int local = r % a.ranks_per_node;
    w.parked = local >= a.per_node;
    const auto one = [](double v) { return std::vector<double>{v}; };
    w.datasets.push_back({"placement", "node", "1", {}, one(r / a.ranks_per_node), true, true});
    w.datasets.push_back({"placement", "local", "1", {}, one(local), true, true});
    w.datasets.push_back({"placement", "active", "1", {}, one(w.parked ? 0 : 1), true, true});
  }
}

void placement_metrics(const ModelledActive& a, WorkloadResult& into) {
  into.metrics.push_back(count_value("nodes", a.nodes));
  into.metrics.push_back(count_value("active_ranks", static_cast<std::int64_t>(a.active.size())));
  into.metrics.push_back(count_value("active_ppn", a.per_node));
  into.metrics.push_back(count_value("natural_placement", 1));
}

}  // namespace desync::sim
