#include "plan/plan.hpp"

#include <tuple>

#include "metrics/comm_balance.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "matrix/rank_pattern.hpp"
#include "matrix/sell_matrix.hpp"

namespace desync {

namespace {

// A generator that also counts every row it produces into the spy grid. The plan scans each row
// of a scanned rank exactly once (scan_rank), so the grid is counted during that scan, from
// the rows as they are generated. Each thread counts into its own G x G grid (registered on its
// first row, summed by sum()): no atomics in the row loop, threads x G^2 x 8 bytes.
class SpyCounter final : public MatrixGenerator {
 public:
  SpyCounter(const MatrixGenerator& g, int size) : g_(g), size_(size), nr_(g.rows()), id_(next_id()) {}
  GlobalIndex rows() const override { return g_.rows(); }
  int max_row_entries() const override { return g_.max_row_entries(); }
  bool is_complex() const override { return g_.is_complex(); }
  int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const override {
    const int n = g_.row(r, cols, vals);
    std::int64_t* grid = own_grid() + block(r) * size_;
    for (int i = 0; i < n; ++i) ++grid[block(cols[i])];
    return n;
  }
  std::vector<std::int64_t> sum() const {
    std::vector<std::int64_t> total(static_cast<std::size_t>(size_) * static_cast<std::size_t>(size_), 0);
    for (const auto& grid : grids_)
      for (std::size_t i = 0; i < total.size(); ++i) total[i] += (*grid)[i];
    return total;
  }

 private:
  std::int64_t block(GlobalIndex i) const { return i * size_ / nr_; }  // i < nr, so < G; nr G < 2^63
  std::int64_t* own_grid() const {
    thread_local std::uint64_t owner = 0;
    thread_local std::int64_t* grid = nullptr;
    if (owner != id_) {
      const std::lock_guard<std::mutex> lock(mutex_);
      grids_.push_back(std::make_unique<std::vector<std::int64_t>>(static_cast<std::size_t>(size_) * static_cast<std::size_t>(size_), 0));
      grid = grids_.back()->data();
      owner = id_;
    }
    return grid;
  }
  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> n{0};
    return ++n;
  }
  const MatrixGenerator& g_;
  const std::int64_t size_;
  const GlobalIndex nr_;
  const std::uint64_t id_;  // tells this counter's grid from an earlier one's in a thread's cache
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<std::vector<std::int64_t>>> grids_;
};

}  // namespace

Plan build_plan(const MatrixGenerator& g, const MatrixConfig& cfg, const PlanOptions& opt,
                const std::function<void(int, int)>& progress) {
  Plan p;
  p.generator = std::string(enum_name(generator_names, cfg.generator));
  p.nr = g.rows();
  p.scalar_bytes = opt.scalar_bytes > 0 ? opt.scalar_bytes : g.is_complex() ? 16 : 8;
  p.nb = opt.nb;
  p.ranks = opt.ranks;
  p.ranks_per_node = opt.ranks_per_node;
  p.global_counts = opt.only_rank < 0;
  p.partition = make_partition(g, cfg, opt.ranks);
  const auto node = [&](int r) { return opt.ranks_per_node > 0 ? r / opt.ranks_per_node : 0; };
  const GlobalIndex grid = std::min<GlobalIndex>(opt.spy_grid < 0 ? 256 : opt.spy_grid, p.nr);
  std::optional<SpyCounter> counter;
  if (grid > 0) counter.emplace(g, static_cast<int>(grid));
  const MatrixGenerator& scanned = counter ? static_cast<const MatrixGenerator&>(*counter) : g;
  for (int r = 0; r < opt.ranks; ++r) {
    if (opt.only_rank >= 0 && r != opt.only_rank) continue;
    const bool sell = cfg.format == MatrixFormat::sell;
    const RankPattern rp = scan_rank(scanned, p.partition, r, false, sell);
    PlanRank info;
    info.rank = r;
    info.rows = rp.rows;
    info.nnz = rp.nnz;
    info.local_nnz = rp.nnz - rp.remote_nnz;
    if (sell) {
      info.sell_stored = sell_stored(rp.lengths, cfg.sell.chunk, cfg.sell.sigma);
      info.sell_stored_local = sell_stored(rp.local_lengths, cfg.sell.chunk, cfg.sell.sigma);
    }
    for (const auto& b : rp.recv)
      info.partners.push_back({b.owner, b.entries, b.entries * p.scalar_bytes * opt.nb, b.owner - r,
                               node(b.owner) == node(r)});
    p.nnz += rp.nnz;
    p.bandwidth = std::max(p.bandwidth, rp.bandwidth);
    p.ranks_info.push_back(std::move(info));
    if (progress) progress(r + 1, opt.ranks);
  }
  p.profile = plan_profile(p.ranks_info);
  if (cfg.format == MatrixFormat::sell) {
    p.sell_chunk = cfg.sell.chunk;
    p.sell_sigma = cfg.sell.sigma;
    p.aligned = cfg.sell.align_rows;
    p.format = "SELL-" + std::to_string(p.sell_chunk) + "-" + std::to_string(p.sell_sigma);
    double nnz = 0, local = 0, stored = 0, stored_local = 0;
    for (const PlanRank& r : p.ranks_info) {
      nnz += static_cast<double>(r.nnz);
      local += static_cast<double>(r.local_nnz);
      stored += static_cast<double>(r.sell_stored);
      stored_local += static_cast<double>(r.sell_stored_local);
    }
    p.sell_beta = stored > 0 ? nnz / stored : 1.0;
    p.sell_beta_local = stored_local > 0 ? local / stored_local : 1.0;
  }
  if (counter) {
    p.spy.size = static_cast<int>(grid);
    p.spy.counts = counter->sum();
  }
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
