#include "workloads/saturation/saturation_sweep.hpp"

#include <optional>

#include "core/mpi_util.hpp"
#include "core/stop_request.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "workloads/saturation/quiet_barrier.hpp"
#include "workloads/saturation/stream_arrays.hpp"

namespace desync::saturation {
namespace {

enum : int { begin_event, compute_end_event, wait_end_event };

// One value of N. arrays: this rank's arrays (absent on a rank that does not stream at this N).
void sweep_n(const SweepPlan& p, int n, const std::optional<StreamArrays>& arrays, Timeline& tl, SweepOutcome& out,
             MPI_Comm comm) {
  const bool streams = arrays.has_value();
  for (std::size_t k = 0; k < p.kernels.size(); ++k) {
    const SaturationKernel kernel = p.kernels[k];
    std::optional<KernelSweep> sweep;
    if (streams) sweep.emplace(arrays->sweeper(kernel));
    if (streams) arrays->poison();
    if (p.ranks) quiet_barrier(comm, streams);
    if (streams) (*sweep)();  // warm-up, untimed
    for (Index rep = 0; rep < p.repetitions; ++rep) {
      const std::int64_t row = p.row(n, k, rep);
      if (p.ranks) quiet_barrier(comm, streams);
      if (streams) {
        const SweepInterval t = (*sweep)();
        tl.set(row, begin_event, t.begin);
        tl.set(row, compute_end_event, t.end);
        out.seconds[static_cast<std::size_t>(row)] = t.seconds();
      } else {
        tl.mark(row, begin_event);
      }
      if (p.ranks) {
        quiet_barrier(comm, streams);
        tl.mark(row, wait_end_event);
      }
    }
    if (streams) {
      out.wrong += arrays->count_wrong(kernel);
      out.checked += arrays->size();
    }
  }
}

}  // namespace

SweepOutcome run_sweep(const SweepPlan& p, Timeline& tl, MPI_Comm comm) {
  const int rank = comm_rank(comm);
  SweepOutcome out;
  out.seconds.assign(static_cast<std::size_t>(p.rows()), -1.0);
  for (int n = 1; n <= p.max_n; ++n) {
    int signal = stop_signal();
    MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, comm);
    if (signal != 0) {
      out.stop_signal = signal;
      break;
    }
    std::optional<StreamArrays> arrays;
    if (!p.ranks) {
      arrays.emplace(p.elements, 0, n, p.kernels);  // N workers of this rank
    } else if (rank < n) {
      // This rank's share of the arrays, swept by all its threads.
      const Index lo = block_begin(p.elements, n, rank), hi = block_begin(p.elements, n, rank + 1);
      arrays.emplace(hi - lo, lo, compat::concurrency(), p.kernels);
    }
    sweep_n(p, n, arrays, tl, out, comm);
    out.rows_done = p.row(n + 1, 0, 0);
  }
  return out;
}

}  // namespace desync::saturation
