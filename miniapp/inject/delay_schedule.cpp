#include "inject/delay_schedule.hpp"

#include <algorithm>
#include <random>

namespace desync {

std::vector<double> delay_schedule(const Config& cfg, int rank) {
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  std::vector<double> d(static_cast<std::size_t>(total), 0.0);
  for (const auto& inj : cfg.inject)
    if (inj.rank == rank) d[static_cast<std::size_t>(inj.iteration + cfg.run.warmup)] += inj.duration;

  const NoiseConfig& n = cfg.noise;
  if (n.kind == NoiseKind::none) return d;
  if (!n.ranks.empty() && std::find(n.ranks.begin(), n.ranks.end(), rank) == n.ranks.end()) return d;
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

}  // namespace desync
