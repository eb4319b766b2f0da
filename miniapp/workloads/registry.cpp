#include "workloads/registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "record/collective_log.hpp"
#include "record/message_log.hpp"
#include "workloads/cg/cg_module.hpp"
#include "workloads/chebfd/chebfd_module.hpp"
#include "workloads/collbench/collbench_module.hpp"
#include "workloads/matvec2d/matvec2d_module.hpp"
#include "workloads/pingpong/pingpong_module.hpp"
#include "workloads/saturation/saturation_module.hpp"
#include "workloads/saturation/stream_table.hpp"
#include "workloads/spmv/spmv_module.hpp"
#include "workloads/stencil/stencil_module.hpp"
#include "workloads/symmsquarecube/symmsquarecube_module.hpp"
#include "workloads/toy/toy_module.hpp"
#include "workloads/triad/triad_module.hpp"

namespace desync {
namespace {

std::vector<WorkloadModule>& modules() {
  static std::vector<WorkloadModule> list{triad_module(),    spmv_module(),      stencil_module(),   chebfd_module(),
                                          pingpong_module(), toy_module(),       cg_module(),        collbench_module(),
                                          matvec2d_module(), symmsquarecube_module(), saturation_module()};
  return list;
}

}  // namespace

const std::vector<WorkloadModule>& workload_registry() { return modules(); }

void register_workload(WorkloadModule m) {
  for (const auto& e : modules())
    if (e.deck.name == m.deck.name) throw std::logic_error("workload \"" + m.deck.name + "\" is registered twice");
  modules().push_back(std::move(m));
}

const WorkloadModule& workload_module(const std::string& name) {
  for (const auto& e : modules())
    if (e.deck.name == name) return e;
  throw std::logic_error("workload \"" + name + "\" is not in the registry");
}

Config load_deck(const std::string& deck_text, const std::string& deck_path, const std::vector<std::string>& overrides) {
  std::vector<const WorkloadDeck*> catalog;
  for (const auto& e : modules()) catalog.push_back(&e.deck);
  return parse_deck(deck_text, deck_path, overrides, catalog);
}

void validate_for_ranks(const Config& cfg, int nranks) {
  validate_shared_for_ranks(cfg, nranks);
  check_record_window(cfg, nranks);
  if (const auto v = workload_module(cfg.run.workload).deck.validate_ranks) v(cfg, nranks);
}

void validate_workload_layout(const Config& cfg, MPI_Comm comm) {
  if (const auto v = workload_module(cfg.run.workload).validate_layout) v(cfg, comm);
}

std::int64_t planned_iterations(const Config& cfg, int ranks) {
  const WorkloadModule& w = workload_module(cfg.run.workload);
  return w.timeline_rows ? w.timeline_rows(cfg, ranks) : cfg.run.warmup + cfg.run.iterations;
}

std::int64_t planned_warmup(const Config& cfg) {
  return workload_module(cfg.run.workload).timeline_rows ? 0 : cfg.run.warmup;
}

void check_record_window(const Config& cfg, int ranks) {
  const RecordConfig& rw = cfg.record;
  if (!rw.window_given) return;
  const WorkloadModule& w = workload_module(cfg.run.workload);
  if (ranks <= 0 && w.timeline_rows) return;
  const std::int64_t warm = planned_warmup(cfg), first = -warm;
  const std::int64_t last = planned_iterations(cfg, std::max(ranks, 1)) - warm - 1;
  if (rw.window_end <= first || rw.window_begin > last)
    throw DeckError(fmt::format("{}: error: [record] window = [{}, {}]: holds none of the run's iterations {}..{} "
                                "({}measured 0..{}); allowed: [first, end) with first in {}..{} and end > first",
                                locate(cfg, "record.window"), rw.window_begin, rw.window_end, first, last,
                                warm > 0 ? fmt::format("warm-up {}..-1, ", first) : "", last, first, last));
}

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size) {
  MemoryEstimate m = workload_module(cfg.run.workload).memory(cfg, rank, size);
  // A flush during the run copies the timeline rows done (commands/run_flush.cpp): at most one more.
  if (cfg.record.flush_seconds > 0)
    for (const auto& [what, bytes] : MemoryEstimate(m).parts)
      if (what == "timeline") m.add("timeline copy (a flush)", bytes);
  // [comm] record_messages: the logs are allocated whole before the loop, the message log at
  // record_messages_max events, the collective log at the run's parts (at most that many).
  if (cfg.comm.record_messages) {
    const WorkloadModule& w = workload_module(cfg.run.workload);
    const OutputShape s = w.output_shape ? w.output_shape(cfg, std::max(size, 1)) : OutputShape{};
    const double cap = static_cast<double>(cfg.comm.record_messages_max);
    if (s.messages_per_row > 0) m.add("message log", cap * MessageLog::event_bytes);
    if (s.collectives_per_row > 0)
      m.add("collective log", std::min(cap, s.collectives_per_row * static_cast<double>(planned_iterations(cfg, std::max(size, 1)))) *
                                  CollectiveLog::event_bytes);
  }
  // The STREAM table's arrays are freed before the workload allocates: the peak is the larger of
  // the two, so only what the table needs beyond the workload counts.
  if (cfg.run.stream_table)
    m.add("STREAM table (before the run, beyond the workload)", std::max(0.0, stream_table_memory(cfg, rank, size) - m.total()));
  // What the process holds before the workload allocates: MPI's, Kokkos', HDF5's and the other
  // libraries' code and buffers, measured, not modelled (50-60 MiB with Open MPI here; more with a
  // GPU runtime). Called in the run's preflight this is the rank's own; in `desync check`, the
  // checking process's (docs/decks.md, "Memory").
  m.add("runtime", resident_bytes());
  return m;
}

std::vector<PhaseStyle> phase_styles(const Config& cfg, const std::vector<std::string>& names, const std::string& work_phase) {
  return resolve_phase_styles(names, workload_module(cfg.run.workload).phases, work_phase);
}

}  // namespace desync
