#include "commands/run_record.hpp"

#include "core/mpi_util.hpp"
#include "metrics/comm_balance.hpp"
#include "workloads/registry.hpp"

namespace desync {

RunMetrics settle_result(WorkloadResult& r, const RunContext& ctx) {
  const Timeline& tl = r.timeline;
  double origin = tl.iterations() == 0 ? 0.0 : tl.at(tl.warmup() < tl.iterations() ? tl.warmup() : 0, 0);
  MPI_Bcast(&origin, 1, MPI_DOUBLE, 0, ctx.comm);
  const ClockMap to_common(ctx.clock, origin);
  r.timeline.to_common(to_common);
  if (r.messages) r.messages->to_common(to_common);
  if (r.collectives) r.collectives->to_common(to_common);
  RunMetrics metrics = compute_metrics(r.timeline, phase_layout(r.timeline.event_names(), r.composites), r.work_phase,
                                       r.bytes_per_iteration, ctx.comm);
  // Every run: time in MPI and how unevenly ranks send (docs/method.md, section 3).
  const CommBalance bal = comm_balance(r.timeline, metrics.layout, r.partners, ctx.cfg.comm.fragment_bytes, r.mpi_phases, ctx.comm);
  record_comm_balance(r, bal, static_cast<std::size_t>(comm_rank(ctx.comm)));
  return metrics;
}

RunRecord run_record(const RunContext& ctx, const WorkloadResult& r, const RunMetrics& m, std::string verification,
                     std::int64_t errors, bool flushed) {
  RunRecord rec{ctx.cfg, ctx.prov, {{&ctx.topo, ctx.clock, &r}}, m, std::move(verification), errors, ctx.planned, ctx.mpi,
                nullptr, &ctx.gpu_aware, phase_styles(ctx.cfg, m.layout.names, r.work_phase),
                workload_module(ctx.cfg.run.workload).deck.collective};
  rec.flushed = flushed;
  return rec;
}

}  // namespace desync
