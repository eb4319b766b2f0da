#include "inject/delay_schedule.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace desync {

std::vector<double> delay_schedule(const Config& cfg, int rank) {
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  std::vector<double> d(static_cast<std::size_t>(total), 0.0);
  for (const auto& inj : cfg.inject)
    if (inj.rank == rank) d[static_cast<std::size_t>(inj.iteration + cfg.run.warmup)] += inj.duration;  // 0: in iterations

  const NoiseConfig& n = cfg.noise;
  if (n.kind == NoiseKind::none) return d;
  if (!n.ranks.empty() && std::find(n.ranks.begin(), n.ranks.end(), rank) == n.ranks.end()) return d;
  if (n.kind == NoiseKind::file) {
    // Line k of the file is the window's k-th iteration (repeating where the file is shorter),
    // column `rank` the rank's delay.
    if (!n.table || rank >= n.table->columns)
      throw std::logic_error("delay_schedule: [noise] kind = \"file\" without the file's column of this rank "
                             "(commands/read_deck.cpp reads it, validate_for_ranks checks its columns)");
    const std::int64_t first = std::max(n.window_begin, -cfg.run.warmup);
    for (std::size_t i = 0; i < d.size(); ++i) {
      const std::int64_t it = static_cast<std::int64_t>(i) - cfg.run.warmup;
      if (it >= n.window_begin && it < n.window_end) d[i] += n.table->at((it - first) % n.table->rows, rank);
    }
    return d;
  }
  const std::uint64_t seed = n.seed != 0 ? n.seed : cfg.run.seed;
  // One independent, reproducible stream per rank. std::seed_seq keeps 32 bits of each value, so a
  // seed above 2^32 gives its high half as one more value (seeds below keep the streams they
  // always had; s and s + 2^32 would otherwise be the same noise).
  const auto low = static_cast<std::uint32_t>(seed), high = static_cast<std::uint32_t>(seed >> 32);
  const auto r = static_cast<std::uint32_t>(rank);
  constexpr std::uint32_t tag = 0x7379'6e63;  // what the former 48-bit constant kept
  std::seed_seq seq = high == 0 ? std::seed_seq{low, r, tag} : std::seed_seq{low, r, tag, high};
  std::mt19937_64 rng(seq);
  std::uniform_real_distribution<double> uniform(0.0, 2.0 * n.mean);
  std::exponential_distribution<double> exponential(1.0 / n.mean);
  // Every iteration draws, the window only adds: inside [window_begin, window_end) a rank has the
  // noise it has without a window (and the same for every rank list that holds it).
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double x = n.kind == NoiseKind::uniform ? uniform(rng) : exponential(rng);
    const std::int64_t it = static_cast<std::int64_t>(i) - cfg.run.warmup;
    if (it >= n.window_begin && it < n.window_end) d[i] += x;
  }
  return d;
}

std::vector<double> delay_multiples(const Config& cfg, int rank) {
  std::vector<double> m;
  for (const auto& inj : cfg.inject) {
    if (inj.rank != rank || inj.duration_iterations <= 0.0) continue;
    m.resize(static_cast<std::size_t>(cfg.run.warmup + cfg.run.iterations), 0.0);
    m[static_cast<std::size_t>(inj.iteration + cfg.run.warmup)] += inj.duration_iterations;
  }
  return m;
}

void add_scaled_delays(std::vector<double>& delay, const std::vector<double>& multiples, double iteration_time) {
  for (std::size_t i = 0; i < multiples.size() && i < delay.size(); ++i) delay[i] += multiples[i] * iteration_time;
}

}  // namespace desync
