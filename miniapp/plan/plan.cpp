#include "plan/plan.hpp"

#include <tuple>

#include "metrics/comm_balance.hpp"

#include <algorithm>
#include <map>

#include "matrix/rank_pattern.hpp"

namespace desync {

Plan build_plan(const MatrixGenerator& g, const MatrixConfig& cfg, const PlanOptions& opt,
                const std::function<void(int, int)>& progress) {
  Plan p;
  p.generator = std::string(enum_name(generator_names, cfg.generator));
  p.nr = g.rows();
  p.scalar_bytes = g.is_complex() ? 16 : 8;
  p.nb = opt.nb;
  p.ranks = opt.ranks;
  p.ranks_per_node = opt.ranks_per_node;
  p.global_counts = opt.only_rank < 0;
  p.partition = make_partition(g, cfg.partition, opt.ranks);
  const auto node = [&](int r) { return opt.ranks_per_node > 0 ? r / opt.ranks_per_node : 0; };
  for (int r = 0; r < opt.ranks; ++r) {
    if (opt.only_rank >= 0 && r != opt.only_rank) continue;
    const RankPattern rp = scan_rank(g, p.partition, r);
    PlanRank info{r, rp.rows, rp.nnz, {}};
    for (const auto& b : rp.recv)
      info.partners.push_back({b.owner, b.entries, b.entries * p.scalar_bytes * opt.nb, b.owner - r,
                               node(b.owner) == node(r)});
    p.nnz += rp.nnz;
    p.bandwidth = std::max(p.bandwidth, rp.bandwidth);
    p.ranks_info.push_back(std::move(info));
    if (progress) progress(r + 1, opt.ranks);
  }
  p.profile = plan_profile(p.ranks_info);
  return p;
}

PlanProfile plan_profile(const std::vector<PlanRank>& ranks) {
  PlanProfile prof;
  std::map<int, std::vector<std::int64_t>> by_distance;
  double sum = 0, count = 0, partner_sum = 0;
  bool first = true;
  for (const auto& r : ranks) {
    const double np = static_cast<double>(r.partners.size());
    prof.partners_min = first ? np : std::min(prof.partners_min, np);
    prof.partners_max = first ? np : std::max(prof.partners_max, np);
    partner_sum += np;
    for (const auto& m : r.partners) {
      const double b = static_cast<double>(m.bytes);
      prof.msg_bytes_min = count == 0 ? b : std::min(prof.msg_bytes_min, b);
      prof.msg_bytes_max = count == 0 ? b : std::max(prof.msg_bytes_max, b);
      sum += b;
      ++count;
      by_distance[m.distance].push_back(m.bytes);
    }
    first = false;
  }
  prof.msg_bytes_mean = count > 0 ? sum / count : 0.0;
  prof.partners_mean = ranks.empty() ? 0.0 : partner_sum / static_cast<double>(ranks.size());
  for (auto& [d, sizes] : by_distance) {
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
    prof.distances.push_back({d, sizes[sizes.size() / 2], static_cast<std::int64_t>(sizes.size())});
  }
  // Sends per rank: what the others receive from it. Only meaningful when every rank is listed.
  prof.all_ranks = ranks.size() > 1;
  for (std::size_t i = 0; i < ranks.size(); ++i) prof.all_ranks = prof.all_ranks && ranks[i].rank == static_cast<int>(i);
  if (prof.all_ranks) {
    prof.send_bytes.assign(ranks.size(), 0);
    prof.send_messages.assign(ranks.size(), 0);
    for (const auto& r : ranks)
      for (const auto& m : r.partners) {
        prof.send_bytes[static_cast<std::size_t>(m.rank)] += m.bytes;
        prof.send_messages[static_cast<std::size_t>(m.rank)] += 1;
      }
    const std::vector<double> b(prof.send_bytes.begin(), prof.send_bytes.end()), n(prof.send_messages.begin(), prof.send_messages.end());
    std::tie(prof.bytes_imbalance, prof.bytes_imbalance_of_max) = imbalance(b);
    std::tie(prof.messages_imbalance, prof.messages_imbalance_of_max) = imbalance(n);
  }
  return prof;
}

}  // namespace desync
