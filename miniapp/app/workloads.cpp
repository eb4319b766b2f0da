#include "app/workloads.hpp"

#include <fmt/format.h>

#include "chebfd/chebfd.hpp"
#include "core/errors.hpp"
#include "spmv/spmv.hpp"
#include "stencil/stencil.hpp"
#include "stencil/stencil_grid.hpp"
#include "triad/triad.hpp"

namespace desync {
namespace {

void triad_ranks(const Config& cfg, int nranks) {
  if (cfg.triad.global_size > 0 && cfg.triad.global_size < nranks)
    throw DeckError(fmt::format("{}: error: [triad] global_size = {}: fewer elements than the {} ranks; allowed: >= {}",
                                cfg.deck_path, cfg.triad.global_size, nranks, nranks));
}

void stencil_ranks(const Config& cfg, int nranks) { validate_stencil_grid(cfg.stencil, nranks); }

}  // namespace

const std::vector<WorkloadEntry>& workload_registry() {
  static const std::vector<WorkloadEntry> list{
      {Workload::triad, "triad", {"run", "triad", "comm", "inject", "noise", "threads"}, false, triad_ranks, triad_memory, run_triad},
      {Workload::spmv, "spmv", {"run", "spmv", "matrix", "comm", "inject", "noise", "threads"}, true, nullptr, spmv_memory, run_spmv},
      {Workload::stencil, "stencil", {"run", "stencil", "comm", "inject", "noise", "threads"}, false, stencil_ranks, stencil_memory, run_stencil},
      {Workload::chebfd, "chebfd", {"run", "chebfd", "matrix", "comm", "inject", "noise", "threads"}, true, nullptr, chebfd_memory, run_chebfd},
  };
  return list;
}

const WorkloadEntry& workload_entry(Workload w) {
  for (const auto& e : workload_registry())
    if (e.id == w) return e;
  throw std::logic_error("workload not in the registry");
}

// The config layer declares these (config/config.hpp); the registry is where they are known.
const std::vector<std::string>& workload_tables(Workload w) { return workload_entry(w).tables; }

void validate_workload_for_ranks(const Config& cfg, int nranks) {
  if (const auto v = workload_entry(cfg.run.workload).validate_ranks) v(cfg, nranks);
}

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size) {
  return workload_entry(cfg.run.workload).memory(cfg, rank, size);
}

}  // namespace desync
