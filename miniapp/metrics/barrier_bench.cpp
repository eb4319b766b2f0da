#include "metrics/barrier_bench.hpp"

#include "core/clock.hpp"

namespace desync {

double barrier_cost(MPI_Comm comm, std::int64_t samples) {
  for (int i = 0; i < 10; ++i) MPI_Barrier(comm);
  const double t0 = now();
  for (std::int64_t i = 0; i < samples; ++i) MPI_Barrier(comm);
  double per = (now() - t0) / static_cast<double>(samples);
  MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPI_DOUBLE, MPI_MAX, comm);
  return per;
}

}  // namespace desync
