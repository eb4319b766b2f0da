#include "workload/halo_metrics.hpp"

#include "core/mpi_util.hpp"
#include "metrics/desync_speedup.hpp"
#include "metrics/phase_stats.hpp"

namespace desync {

double median_over_ranks(double mine, MPI_Comm comm) {
  std::vector<double> all(static_cast<std::size_t>(comm_size(comm)));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm);
  return min_med_max(all).median;
}

HaloTotals halo_totals(const WorkloadResult& r, const HaloPlan& plan, std::int64_t nnz, MPI_Comm comm) {
  const PhaseLayout layout = phase_layout(r.timeline.event_names(), r.composites);
  const auto d = phase_durations(r.timeline, layout);
  const double exec = phase_total(d, layout, "exec"), comm_time = phase_total(d, layout, "comm");
  double sums[2] = {static_cast<double>(nnz), static_cast<double>(plan.recv.size())};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  return {sums[0], sums[1] / comm_size(comm), median_over_ranks(comm_to_exec(comm_time, exec), comm)};
}

std::vector<NamedValue> halo_metrics(const HaloTotals& t) {
  return {{"cer_median", t.cer_median, "1"},
          {"partners_mean", t.partners_mean, "1"},
          count_value("nnz_total", static_cast<std::int64_t>(t.nnz_total))};
}

}  // namespace desync
