#pragma once
// The run-level numbers every workload with a matrix halo reports (docs/method.md, sections 13
// and 15), assembled once: cer_median (communication over execution time of each rank, the
// "comm" and "exec" phases summed over the measured iterations; median over ranks),
// partners_mean (receive partners per rank) and nnz_total (nonzeros over all ranks).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/halo_plan.hpp"
#include "record/workload_result.hpp"

namespace desync {

struct HaloTotals {
  double nnz_total = 0.0;
  double partners_mean = 0.0;
  double cer_median = 0.0;
};

// Collective over comm; r's timeline and composites ("exec", "comm") must be final.
HaloTotals halo_totals(const WorkloadResult& r, const HaloPlan& plan, std::int64_t nnz, MPI_Comm comm);

// Any value's median over the ranks of comm (collective).
double median_over_ranks(double mine, MPI_Comm comm);

// cer_median, partners_mean, nnz_total as /metrics values.
std::vector<NamedValue> halo_metrics(const HaloTotals& t);

}  // namespace desync
