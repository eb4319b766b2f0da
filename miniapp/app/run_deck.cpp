#include "app/run_deck.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/mpi_util.hpp"
#include "io/output_file.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "metrics/phase_stats.hpp"
#include "report/summary_table.hpp"
#include "workload/chebfd.hpp"
#include "workload/spmv.hpp"
#include "workload/stencil.hpp"
#include "workload/triad.hpp"

namespace desync {
namespace {

std::string g_pending;

// Timestamps must increase within and across iterations, and every iteration has its first
// event; a violation means a recording bug.
std::int64_t timeline_disorder(const Timeline& tl) {
  std::int64_t bad = 0;
  double prev = -INFINITY;
  for (std::int64_t it = 0; it < tl.iterations(); ++it)
    for (int e = 0; e < tl.events(); ++e) {
      const double t = tl.at(it, e);
      if (std::isnan(t)) continue;
      if (t < prev) ++bad;
      prev = t;
    }
  for (std::int64_t it = 0; it < tl.iterations(); ++it)
    if (std::isnan(tl.at(it, 0))) ++bad;
  return bad;
}

std::string verdict(const WorkloadResult& r, const Timeline& tl, MPI_Comm comm, std::int64_t& total_errors) {
  std::int64_t e[4] = {r.element_errors, r.message_errors, timeline_disorder(tl), r.extra_verdict.empty() ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, e, 4, MPI_INT64_T, MPI_SUM, comm);
  total_errors = e[0] + e[1] + e[2] + e[3];
  if (total_errors == 0) return "passed";
  std::string why;
  if (e[3]) {
    // The lowest failing rank's own reason.
    const int rank = comm_rank(comm);
    int first = r.extra_verdict.empty() ? comm_size(comm) : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    std::string reason = r.extra_verdict;
    bcast_string(reason, first, comm);
    why += reason + "; ";
  }
  if (e[0]) why += std::to_string(e[0]) + " vector elements wrong; ";
  if (e[1]) why += std::to_string(e[1]) + " messages from the wrong partner or iteration; ";
  if (e[2]) why += std::to_string(e[2]) + " timeline events missing or out of order; ";
  return "failed: " + why.substr(0, why.size() - 2);
}

}  // namespace

const std::string& pending_output() { return g_pending; }

int run_deck(const Config& cfg, const RunOptions& opt, MPI_Comm comm) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  validate_for_ranks(cfg, size);
  if (cfg.has_matrix && cfg.run.workload != Workload::spmv && cfg.run.workload != Workload::chebfd)
    throw DeckError(cfg.deck_path + ": error: the deck has a [matrix] table, but workload \"" +
                    std::string(enum_name(workload_names, cfg.run.workload)) + "\" uses no matrix; "
                    "use `desync plan` for the matrix, workload = \"spmv\", or remove [matrix]");
  const std::string path = opt.output.empty() ? output_path(cfg) : opt.output;
  const std::string tmp = path + ".tmp";

  log::info("desync: workload {} on {} rank(s) x {} thread(s) ({})\n", enum_name(workload_names, cfg.run.workload), size,
            compat::concurrency(), compat::execution_space_name());
  const Provenance prov = collect_provenance(opt.command_line, comm);
  const Topology topo = probe_topology(comm);
  for (const auto& w : topo.warnings) log::warn("{}\n", w);
  const ClockOffset clock = estimate_clock_offset(comm);

  WorkloadResult result = cfg.run.workload == Workload::chebfd    ? run_chebfd(cfg, comm)
                          : cfg.run.workload == Workload::spmv    ? run_spmv(cfg, comm)
                          : cfg.run.workload == Workload::stencil ? run_stencil(cfg, comm)
                                                                  : run_triad(cfg, comm);

  // Common time base: rank 0's clock, zero at rank 0's first measured iteration.
  const Timeline& tl = result.timeline;
  double origin = tl.at(tl.warmup() < tl.iterations() ? tl.warmup() : 0, 0);
  MPI_Bcast(&origin, 1, MPI_DOUBLE, 0, comm);
  result.timeline.shift(clock.offset + origin);
  const RunMetrics metrics = compute_metrics(result.timeline, phase_layout(result.timeline.event_names(), result.composites),
                                             result.work_phase, result.bytes_per_iteration, comm);
  std::int64_t errors = 0;
  const std::string verification = verdict(result, result.timeline, comm, errors);

  g_pending = tmp;
  write_output(tmp, RunRecord{cfg, prov, topo, clock, result, metrics, verification, errors}, comm);
  MPI_Barrier(comm);
  if (rank == 0) std::filesystem::rename(tmp, path);
  g_pending.clear();
  MPI_Barrier(comm);

  log::info("{}", summary_table(metrics, tl.iterations() - tl.warmup(), verification, path));
  for (const auto& v : result.metrics) log::info("  {} = {:.6g} {}\n", v.name, v.value, v.units);
  return errors == 0 ? exit_ok : exit_verification_failed;
}

}  // namespace desync
