#include "commands/run_deck.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "commands/output_estimate.hpp"
#include "commands/preflight.hpp"
#include "commands/run_flush.hpp"
#include "commands/run_record.hpp"
#include "commands/run_verdict.hpp"
#include "workloads/registry.hpp"
#include "comm/gpu_aware.hpp"
#include "comm/clock_sync.hpp"
#include "config/locate_key.hpp"
#include "core/disk_space.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/stop_request.hpp"
#include "core/log.hpp"
#include "core/mpi_util.hpp"
#include "io/output_file.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "metrics/phase_stats.hpp"
#include "report/summary_table.hpp"
#include "workloads/saturation/stream_table.hpp"

namespace desync {
namespace {

std::string g_pending;

// The bandwidth note of the summary, from the node's summed per-iteration traffic.
std::string node_note(const WorkloadResult& r, const Topology& topo, MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, comm_rank(comm), MPI_INFO_NULL, &node);
  double bytes = r.bytes_per_iteration;
  MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_SUM, node);
  MPI_Comm_free(&node);
  return bandwidth_note(bytes, topo.node_llc_bytes, topo.oversubscribed);
}

// /summary/result_fingerprint and /summary/result_norm2 (docs/output.md): per rank, for workloads
// that hash their final vector. Every rank writes the same datasets, so the flag is made collective
// (a rank holding no result, parked or off layer 0, writes zeros). The fingerprint keeps the
// FNV-1a hash's low 48 bits: exact in the float64 the dataset list carries, and ample to tell two
// results apart.
void add_result_digest(WorkloadResult& r, MPI_Comm comm) {
  int any = r.has_result_digest ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, comm);
  if (!any) return;
  const std::uint64_t fp48 = r.has_result_digest ? (r.result_fingerprint & ((std::uint64_t{1} << 48) - 1)) : 0;
  r.datasets.push_back({"summary", "result_fingerprint", "1", {}, {static_cast<double>(fp48)}, true, true});
  r.datasets.push_back({"summary", "result_norm2", "1", {}, {r.has_result_digest ? r.result_norm2 : 0.0}, true, false});
}

// /summary/memory_estimate and /summary/peak_resident (docs/output.md): the rank's preflight
// estimate beside what the process really held at its peak, up to the end of the loop (the final
// write's own buffers come after); the output_estimate_decks ctest compares them.
void add_memory_record(WorkloadResult& r, const MemoryEstimate& mem) {
  r.datasets.push_back({"summary", "memory_estimate", "B", {}, {mem.total()}, true, false});
  r.datasets.push_back({"summary", "peak_resident", "B", {}, {peak_resident_bytes()}, true, false});
}

}  // namespace

const std::string& pending_output() { return g_pending; }

RunPreflight preflight_run(const Config& cfg, const RunOptions& opt, MPI_Comm comm) {
  const int size = comm_size(comm);
  validate_for_ranks(cfg, size);
  validate_workload_layout(cfg, comm);
  check_thread_level(cfg, comm);
  RunPreflight pre;
  pre.output = output_target(cfg, opt.output, opt.force);
  // The estimated file (commands/output_estimate.hpp). The flushes' OUT.partial.0/.1 are not
  // required: a run shorter than [record] flush_seconds writes none, and a flush that finds no room
  // is skipped with a warning; a run that may need them is told here (docs/decks.md, "Output size").
  // Rank 0 checks the room (and its estimate loads an hwloc topology: not on every rank).
  const double need = comm_rank(comm) == 0 ? estimate_output(cfg, size).total() : 0.0;
  check_output_path(cfg, pre.output, need, comm);
  if (cfg.record.flush_seconds > 0 && comm_rank(comm) == 0) {
    const double room = free_bytes(directory_of(pre.output.path));
    if (room >= 0 && room < 3.0 * need)
      log::warn("the file system of {} has {} free: room for the result (about {}), but not for it and the two "
                "copies a run longer than [record] flush_seconds = {:g} s writes beside it (OUT.partial.0/.1); "
                "a flush that finds no room is skipped\n",
                directory_of(pre.output.path), format_bytes(room), format_bytes(need), cfg.record.flush_seconds);
  }
  pre.memory = check_memory(cfg, comm);
  return pre;
}

int run_deck(const Config& cfg, const RunOptions& opt, const RunPreflight& pre, MPI_Comm comm) {
  const int size = comm_size(comm);
  const OutputTarget& out = pre.output;
  const MemoryEstimate& mem = pre.memory;
  const std::int64_t planned = planned_iterations(cfg, size);
  install_stop_handlers();

  log::info("desync: workload {} on {} rank(s) x {} thread(s) ({}), about {} per rank\n",
            cfg.run.workload, size, compat::concurrency(), compat::execution_space_name(),
            format_bytes(mem.total()));
  RunContext ctx{cfg, comm, collect_provenance(opt.command_line, comm), probe_mpi_library(comm), {}, {}, {}, planned};
  if (const std::string w = eager_limit_mismatch(ctx.mpi, cfg.comm.eager_limit); !w.empty())
    log::warn("{}: {}\n", locate(cfg, "comm.eager_limit"), w);
  ctx.gpu_aware = choose_gpu_aware_mpi(cfg.comm.gpu_aware_mpi);  // as every exchange resolves it
  if (!ctx.gpu_aware.warning.empty()) log::warn("{}\n", ctx.gpu_aware.warning);
  ctx.topo = probe_topology(comm);
  for (const auto& w : ctx.topo.warnings) log::warn("{}\n", w);
  ctx.clock.start = estimate_clock_offset(comm);
  // [record] flush_seconds: what ran goes to OUT.partial while the run runs (commands/run_flush.hpp).
  RunFlusher flusher(ctx, out.path);

  const StreamTable stream = measure_stream_table(cfg, comm);  // [run] stream_table: before the workload
  WorkloadResult result = workload_module(cfg.run.workload).run(cfg, comm);
  // The offsets again after the loop: their change over the run is the clocks' drift, applied
  // to the timestamps where it exceeds the two estimates' errors (docs/method.md, section 1).
  ctx.clock = RankClock::of(ctx.clock.start, estimate_clock_offset(comm));
  add_stream_table(result, stream);
  if (result.stop_signal != 0)
    log::warn("stopped by {} after {} of {} iterations; writing what was recorded, marked incomplete\n",
              signal_name(result.stop_signal), result.timeline.iterations(), planned);

  const Timeline& tl = result.timeline;
  const RunMetrics metrics = settle_result(result, ctx);
  add_result_digest(result, comm);
  add_memory_record(result, mem);
  std::int64_t errors = 0;
  const std::string verification = run_verdict(result, result.timeline, comm, errors);

  g_pending = temporary_output_path(out.path, comm);
  try {
    commit_output(out.path, g_pending, run_record(ctx, result, metrics, verification, errors, false), out.overwrite, comm);
  } catch (const OutputError& e) {
    g_pending.clear();
    if (flusher.flushes() == 0) throw;
    // What the flushes wrote stays: the run is not lost.
    throw OutputError(std::string(e.what()) + "; what ran until the last flush is in " + flusher.link());
  }
  g_pending.clear();
  flusher.remove_generations();

  const std::string said = result.verification_scope.empty() || errors != 0
                               ? verification
                               : verification + " (in part: " + result.verification_scope + ")";
  log::info("{}", summary_table(metrics, result.metrics, tl.iterations() - tl.warmup(), said, out.path,
                                node_note(result, ctx.topo, comm)));
  if (!result.report.empty()) log::info("\n{}", result.report);
  if (result.stop_signal != 0) return exit_interrupted;
  return errors == 0 ? exit_ok : exit_verification_failed;
}

}  // namespace desync
