// Text and JSON renderings of a plan. JSON key names are stable and documented in
// docs/method.md ("Plan"); the JSON is written by hand, every value a number, bool or plain
// identifier string, so no escaping is needed.
#include <fmt/format.h>

#include <algorithm>

#include "plan/plan.hpp"

namespace desync {
namespace {

std::string bytes_text(double b) {
  if (b >= 1e6) return fmt::format("{:.3g} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.3g} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

}  // namespace

std::string plan_text(const Plan& p) {
  std::string s = fmt::format("matrix: {} (scalar {} B), nr {}, ", p.generator, p.scalar_bytes, p.nr);
  if (p.global_counts)
    s += fmt::format("nnz {}, nonzeros per row {:.3f}, bandwidth {}\n", p.nnz,
                     static_cast<double>(p.nnz) / static_cast<double>(p.nr), p.bandwidth);
  else
    s += fmt::format("(one rank scanned: nnz {}, bandwidth {} of that rank)\n", p.nnz, p.bandwidth);
  s += fmt::format("ranks {}, ranks per node {}, block width nb {}\n", p.ranks,
                   p.ranks_per_node > 0 ? std::to_string(p.ranks_per_node) : std::string("all"), p.nb);
  if (p.sell_chunk > 0)
    s += fmt::format("format: {}{}, fill-in beta {:.4f} (whole rows: NON-SPLIT, PIPELINE), {:.4f} (own columns: spmv, "
                     "SPLIT-WAIT)\n",
                     p.format, p.aligned ? ", row ranges aligned to whole chunks" : "", p.sell_beta, p.sell_beta_local);
  const PlanProfile& f = p.profile;
  s += fmt::format("messages: size min {} / mean {} / max {}; partners per rank min {:.0f} / mean {:.2f} / max {:.0f}\n",
                   bytes_text(f.msg_bytes_min), bytes_text(f.msg_bytes_mean), bytes_text(f.msg_bytes_max),
                   f.partners_min, f.partners_mean, f.partners_max);
  if (f.all_ranks) {
    std::int64_t bmax = 0, mmax = 0;
    for (std::size_t r = 0; r < f.send_bytes.size(); ++r) {
      bmax = std::max(bmax, f.send_bytes[r]);
      mmax = std::max(mmax, f.send_messages[r]);
    }
    s += fmt::format("sent per exchange and rank: bytes max {}, imbalance max/mean-1 {:.1f}%, 1-mean/max {:.1f}%; "
                     "messages max {}, imbalance {:.1f}%, {:.1f}%\n",
                     bytes_text(static_cast<double>(bmax)), 100 * f.bytes_imbalance, 100 * f.bytes_imbalance_of_max, mmax,
                     100 * f.messages_imbalance, 100 * f.messages_imbalance_of_max);
  }
  s += "profile: distance -> typical (median) message size [messages]\n";
  for (const auto& d : f.distances) s += fmt::format("  {:+8d}  {:>10}  [{}]\n", d.distance, bytes_text(static_cast<double>(d.bytes)), d.count);
  s += "ranks: rank rows nnz | partners as distance:bytes (* = other node)\n";
  for (const auto& r : p.ranks_info) {
    s += fmt::format("  {:6d} {:10d} {:12d} |", r.rank, r.rows, r.nnz);
    for (const auto& m : r.partners) s += fmt::format(" {:+d}:{}{}", m.distance, m.bytes, m.intra_node ? "" : "*");
    s += "\n";
  }
  return s;
}

std::string plan_json(const Plan& p) {
  std::string s = "{\n";
  s += fmt::format("  \"generator\": \"{}\",\n  \"nr\": {},\n  \"nnz\": {},\n  \"bandwidth\": {},\n", p.generator, p.nr,
                   p.nnz, p.bandwidth);
  s += fmt::format("  \"format\": \"{}\",\n", p.sell_chunk > 0 ? "sell" : "crs");
  if (p.sell_chunk > 0)
    s += fmt::format("  \"sell\": {{\"chunk\": {}, \"sigma\": {}, \"align_rows\": {}, \"beta\": {}, \"beta_local\": {}}},\n",
                     p.sell_chunk, p.sell_sigma, p.aligned ? "true" : "false", p.sell_beta, p.sell_beta_local);
  s += fmt::format("  \"global_counts\": {},\n  \"scalar_bytes\": {},\n  \"nb\": {},\n  \"ranks_total\": {},\n  \"ranks_per_node\": {},\n",
                   p.global_counts ? "true" : "false", p.scalar_bytes, p.nb, p.ranks, p.ranks_per_node);
  s += "  \"ranks\": [";
  for (std::size_t i = 0; i < p.ranks_info.size(); ++i) {
    const PlanRank& r = p.ranks_info[i];
    s += fmt::format("{}\n    {{\"rank\": {}, \"first_row\": {}, \"rows\": {}, \"nnz\": {}, ", i ? "," : "", r.rank,
                     p.partition.begin(r.rank), r.rows, r.nnz);
    if (p.sell_chunk > 0)
      s += fmt::format("\"local_nnz\": {}, \"sell_stored\": {}, \"sell_stored_local\": {}, ", r.local_nnz, r.sell_stored,
                       r.sell_stored_local);
    if (p.profile.all_ranks)
      s += fmt::format("\"send_bytes\": {}, \"send_messages\": {}, ", p.profile.send_bytes[static_cast<std::size_t>(r.rank)],
                       p.profile.send_messages[static_cast<std::size_t>(r.rank)]);
    s += "\"partners\": [";
    for (std::size_t j = 0; j < r.partners.size(); ++j) {
      const PlanPartner& m = r.partners[j];
      s += fmt::format("{}{{\"rank\": {}, \"entries\": {}, \"bytes\": {}, \"distance\": {}, \"intra_node\": {}}}",
                       j ? ", " : "", m.rank, m.entries, m.bytes, m.distance, m.intra_node ? "true" : "false");
    }
    s += "]}";
  }
  s += "\n  ],\n  \"profile\": {\n    \"distances\": [";
  const PlanProfile& f = p.profile;
  for (std::size_t i = 0; i < f.distances.size(); ++i)
    s += fmt::format("{}{{\"distance\": {}, \"bytes\": {}, \"count\": {}}}", i ? ", " : "", f.distances[i].distance,
                     f.distances[i].bytes, f.distances[i].count);
  s += fmt::format("],\n    \"msg_bytes_min\": {},\n    \"msg_bytes_mean\": {},\n    \"msg_bytes_max\": {},\n", f.msg_bytes_min,
                   f.msg_bytes_mean, f.msg_bytes_max);
  s += fmt::format("    \"partners_min\": {},\n    \"partners_mean\": {},\n    \"partners_max\": {}", f.partners_min,
                   f.partners_mean, f.partners_max);
  if (f.all_ranks)
    s += fmt::format(",\n    \"bytes_imbalance\": {},\n    \"bytes_imbalance_of_max\": {},\n    \"messages_imbalance\": {},\n"
                     "    \"messages_imbalance_of_max\": {}",
                     f.bytes_imbalance, f.bytes_imbalance_of_max, f.messages_imbalance, f.messages_imbalance_of_max);
  s += "\n  }";
  if (p.spy.size > 0) {  // "spy_grid": edges of the G blocks, then the nonzero blocks as [row block, column block, count]
    const int g = p.spy.size;
    s += fmt::format(",\n  \"spy_grid\": {{\"size\": {}, \"edges\": [", g);
    for (int b = 0; b <= g; ++b) s += fmt::format("{}{}", b ? ", " : "", SpyGrid::edge(b, p.nr, g));
    s += "],\n    \"blocks\": [";
    std::size_t written = 0;
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) {
        const std::int64_t n = p.spy.counts[static_cast<std::size_t>(i) * static_cast<std::size_t>(g) + static_cast<std::size_t>(j)];
        if (n == 0) continue;
        s += fmt::format("{}[{}, {}, {}]", written == 0 ? "" : written % 16 ? ", " : ",\n      ", i, j, n);
        ++written;
      }
    s += "]}";
  }
  s += "\n}\n";
  return s;
}

}  // namespace desync
