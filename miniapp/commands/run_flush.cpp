#include "commands/run_flush.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/log.hpp"
#include "core/mpi_util.hpp"

namespace desync {

RunFlusher::RunFlusher(const RunContext& ctx, const std::string& output) : ctx_(ctx), generations_(output, ctx.comm) {
  if (ctx.cfg.record.flush_seconds > 0) install_flush_hook(this);
}

RunFlusher::~RunFlusher() {
  if (installed_flush_hook() == this) install_flush_hook(nullptr);
}

double RunFlusher::next_interval(double took) const {
  const double given = ctx_.cfg.record.flush_seconds;
  return ctx_.cfg.record.flush_given ? given : std::max(given, took / flush_share);
}

double RunFlusher::flush(const WorkloadResult& result, std::int64_t iterations_done) {
  const double t0 = MPI_Wtime();
  if (failed_) return 0.0;
  // A copy of what ran: the result itself keeps its local clock and its full length.
  WorkloadResult snap(result.timeline.head(iterations_done));
  snap.composites = result.composites;
  snap.work_phase = result.work_phase;
  snap.mpi_phases = result.mpi_phases;
  snap.bytes_per_iteration = result.bytes_per_iteration;
  snap.flops_per_iteration = result.flops_per_iteration;
  snap.partners = result.partners;
  snap.datasets = result.datasets;
  snap.parked = result.parked;
  if (result.messages) snap.messages = std::make_shared<MessageLog>(result.messages->snapshot());
  if (result.collectives) snap.collectives = std::make_shared<CollectiveLog>(result.collectives->snapshot());
  const RunMetrics metrics = settle_result(snap, ctx_);
  const std::int64_t measured = snap.timeline.iterations() - snap.timeline.warmup();
  const std::string verdict =
      fmt::format("not done: written while the run ran, after {} of {} iterations", iterations_done, ctx_.planned);
  const std::string failure = generations_.write(run_record(ctx_, snap, metrics, verdict, 0, true));
  double took = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &took, 1, MPI_DOUBLE, MPI_MAX, ctx_.comm);
  if (!failure.empty()) {
    failed_ = true;
    log::warn("[record] flushing what ran to {} failed ({}); the run goes on and writes its file at the end\n",
              generations_.link(), failure);
  } else {
    log::info("[record] {} measured iterations on disk in {} (flush {}, {:.3f} s)\n", measured, generations_.link(),
              generations_.flushes(), took);
  }
  return took;
}

}  // namespace desync
