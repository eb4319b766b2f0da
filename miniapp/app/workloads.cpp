#include "app/workloads.hpp"

#include <fmt/format.h>

#include "chebfd/chebfd.hpp"
#include "pingpong/pingpong.hpp"
#include "cg/cg.hpp"
#include "toy/toy.hpp"
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

void pingpong_ranks(const Config& cfg, int nranks) {
  if (nranks < 2)
    throw DeckError(fmt::format("{}: error: workload \"pingpong\" needs at least 2 ranks (pairs of rank i and i + P/2); "
                                "the run has {}", cfg.deck_path, nranks));
  if (cfg.pingpong.pairs > nranks / 2)
    throw DeckError(fmt::format("{}: error: [pingpong] pairs = {}: {} rank(s) make at most {} pair(s); allowed: 0 (the "
                                "mode's default) .. {}",
                                cfg.pingpong.pairs_pos.where, cfg.pingpong.pairs, nranks, nranks / 2, nranks / 2));
}

void toy_ranks(const Config& cfg, int nranks) {
  if (cfg.toy.degree > nranks - 1)
    throw DeckError(fmt::format("{}: error: [toy] degree = {}: {} rank(s) have at most {} other rank(s) to send to; "
                                "allowed: 0 (all others) .. {}",
                                cfg.toy.degree_pos.where, cfg.toy.degree, nranks, nranks - 1, nranks - 1));
}

const char* cg_overlap(const Config& cfg) { return cfg.cg.overlap ? "the rows that read no halo value (rows)" : nullptr; }

const char* toy_overlap(const Config& cfg) { return cfg.toy.overlap ? "compute part 1 (microseconds)" : nullptr; }

std::int64_t pingpong_rows(const Config& cfg) {
  return static_cast<std::int64_t>(cfg.pingpong.sizes.size()) * cfg.run.iterations;
}

const char* spmv_overlap(const Config& cfg) {
  // KokkosKernels' product is one library call over all rows: it cannot be cut into chunks.
  if (cfg.spmv.kernel == SpmvKernel::kokkoskernels) return nullptr;
  return cfg.spmv.scheme == SpmvScheme::splitwait ? "the local part of the product (rows)" : nullptr;
}

const char* chebfd_overlap(const Config& cfg) {
  if (cfg.chebfd.scheme == ChebfdScheme::splitwait) return "the local part of the product (rows)";
  if (cfg.chebfd.scheme == ChebfdScheme::pipeline) return "the fused kernel of the previous sub-block (rows)";
  return nullptr;
}

// Why progress = "test" cannot act in this deck, or empty.
std::string no_overlap_hint(const Config& cfg) {
  switch (cfg.run.workload) {
    case Workload::triad: return "the triad sweeps, then communicates";
    case Workload::stencil: return "the stencil exchanges its halo, then sweeps";
    case Workload::spmv:
      if (cfg.spmv.kernel == SpmvKernel::kokkoskernels)
        return "kernel = \"kokkoskernels\" is one library call that cannot be cut into chunks; use kernel = \"desync\"";
      return "scheme \"nonsplit\" waits before computing; use scheme = \"splitwait\"";
    case Workload::chebfd: return "scheme \"nonsplit\" waits before computing; use \"splitwait\" or \"pipeline\"";
    case Workload::pingpong: return "a micro-benchmark only communicates";
    case Workload::toy: return "the no-overlap toy waits before computing; use [toy] overlap = true";
    case Workload::cg: return "the non-overlapped SpMV waits before computing; use [cg] overlap = true";
  }
  return "";
}

}  // namespace

namespace {

}  // namespace

const std::vector<WorkloadEntry>& workload_registry() {
  static const std::vector<WorkloadEntry> list{
      {Workload::triad, "triad", {"run", "triad", "comm", "inject", "noise", "threads"}, false, triad_ranks, nullptr, triad_memory, run_triad},
      {Workload::spmv, "spmv", {"run", "spmv", "matrix", "comm", "inject", "noise", "threads"}, true, nullptr, spmv_overlap, spmv_memory, run_spmv},
      {Workload::stencil, "stencil", {"run", "stencil", "comm", "inject", "noise", "threads"}, false, stencil_ranks, nullptr, stencil_memory, run_stencil},
      {Workload::chebfd, "chebfd", {"run", "chebfd", "matrix", "comm", "inject", "noise", "threads"}, true, nullptr, chebfd_overlap, chebfd_memory, run_chebfd},
      {Workload::pingpong, "pingpong", {"run", "pingpong", "comm", "threads"}, false, pingpong_ranks, nullptr, pingpong_memory, run_pingpong, pingpong_rows},
      {Workload::toy, "toy", {"run", "toy", "comm", "inject", "noise", "threads"}, false, toy_ranks, toy_overlap, toy_memory, run_toy},
      {Workload::cg, "cg", {"run", "cg", "matrix", "comm", "inject", "noise", "threads"}, true, nullptr, cg_overlap, cg_memory, run_cg},
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

void validate_workload_deck(const Config& cfg) {
  const WorkloadEntry& w = workload_entry(cfg.run.workload);
  if (cfg.comm.progress != ProgressMode::test) return;
  const char* work = w.overlapped_work ? w.overlapped_work(cfg) : nullptr;
  if (work) return;
  throw DeckError(fmt::format("{}: error: [comm] progress = \"test\" tests the messages while the rank computes, "
                              "but workload \"{}\" computes nothing while they are in flight ({}); allowed here: "
                              "\"wait\", \"thread\"",
                              cfg.comm.progress_pos.where, w.name, no_overlap_hint(cfg)));
}

std::int64_t planned_iterations(const Config& cfg) {
  const WorkloadEntry& w = workload_entry(cfg.run.workload);
  return w.timeline_rows ? w.timeline_rows(cfg) : cfg.run.warmup + cfg.run.iterations;
}

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size) {
  return workload_entry(cfg.run.workload).memory(cfg, rank, size);
}

}  // namespace desync
