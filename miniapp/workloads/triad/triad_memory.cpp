// The triad's peak memory per rank: the estimate docs/decks.md ("Memory") and docs/method.md (section 16) describe.
#include "workloads/triad/triad.hpp"

#include <fmt/format.h>


namespace desync {

MemoryEstimate triad_memory(const Config& cfg, int rank, int size) {
  const TriadConfig& t = cfg.params.get<TriadConfig>();
  const double n = static_cast<double>(t.global_size > 0 ? t.global_size / size + (rank < t.global_size % size ? 1 : 0)
                                                         : t.size_per_rank);
  MemoryEstimate m;
  m.knobs = t.global_size > 0 ? fmt::format("[triad] global_size = {}, or use more ranks", t.global_size)
                              : fmt::format("[triad] size_per_rank = {}", t.size_per_rank);
  m.add("arrays", n * 8.0 * (t.kernel == TriadKernel::schoenauer ? 4 : 3));
  m.add("messages", 2.0 * static_cast<double>(t.offsets.size()) * static_cast<double>(t.message_bytes));
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
