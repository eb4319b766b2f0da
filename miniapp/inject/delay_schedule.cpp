#include "inject/delay_schedule.hpp"

#include <random>

namespace desync {

std::vector<double> delay_schedule(const Config& cfg, int rank) {
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  std::vector<double> d(static_cast<std::size_t>(total), 0.0);
  for (const auto& inj : cfg.inject)
    if (inj.rank == rank) d[static_cast<std::size_t>(inj.iteration + cfg.run.warmup)] += inj.duration;

  if (cfg.noise.kind == NoiseKind::none) return d;
  const std::uint64_t seed = cfg.noise.seed != 0 ? cfg.noise.seed : cfg.run.seed;
  // One independent, reproducible stream per rank.
  std::seed_seq seq{seed, static_cast<std::uint64_t>(rank), std::uint64_t{0x6465'7379'6e63}};
  std::mt19937_64 rng(seq);
  std::uniform_real_distribution<double> uniform(0.0, 2.0 * cfg.noise.mean);
  std::exponential_distribution<double> exponential(1.0 / cfg.noise.mean);
  for (auto& x : d)
    x += cfg.noise.kind == NoiseKind::uniform ? uniform(rng) : exponential(rng);
  return d;
}

}  // namespace desync
