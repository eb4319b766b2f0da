#pragma once
// How balanced the point-to-point phase is (papers.md D.5; docs/method.md, section 3): each
// rank's share of time in MPI, and the imbalance over ranks of the bytes and messages each rank
// sends per exchange, as max/mean - 1 and 1 - mean/max (the study gives no formula, so both).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "metrics/phase_stats.hpp"
#include "record/timeline.hpp"
#include "record/workload_result.hpp"

namespace desync {

struct CommBalance {
  std::vector<double> mpi_share;              // [rank]: MPI phases / iteration time, measured iterations
  std::vector<std::int64_t> bytes_sent;       // [rank]: per exchange (the /comm partner list)
  std::vector<std::int64_t> messages_sent;    // [rank]: MPI messages per exchange, fragments counted
  double mpi_share_median = 0.0, mpi_share_max = 0.0;
  double bytes_max_over_mean = 0.0, bytes_mean_over_max = 0.0;       // max/mean - 1, 1 - mean/max
  double messages_max_over_mean = 0.0, messages_mean_over_max = 0.0;
};

// One rank's parts, and the combination over ranks without MPI (`desync simulate`).
double mpi_share(const Timeline& tl, const PhaseLayout& layout, const std::vector<std::string>& mpi_phases);
// The same from the rank's phase_durations(), when the caller has them already.
double mpi_share(const std::vector<std::vector<double>>& durations, const PhaseLayout& layout,
                 const std::vector<std::string>& mpi_phases);
struct SentPerExchange {
  std::int64_t bytes = 0, messages = 0;
};
SentPerExchange sent_per_exchange(const PartnerList& partners, std::int64_t fragment_bytes);
CommBalance combine_comm_balance(std::vector<double> mpi_share, const std::vector<SentPerExchange>& sent);

// mpi_phases: the phases counted as time in MPI (WorkloadResult::mpi_phases; by default post,
// wait, reply and sync). Collective over comm; identical on all ranks.
CommBalance comm_balance(const Timeline& tl, const PhaseLayout& layout, const PartnerList& partners,
                         std::int64_t fragment_bytes, const std::vector<std::string>& mpi_phases, MPI_Comm comm);

// Adds the balance to a rank's result as every run records it: the six run metrics and the rank's
// /summary rows mpi_share, bytes_sent and messages_sent (docs/output.md).
void record_comm_balance(WorkloadResult& r, const CommBalance& b, std::size_t rank);

// max/mean - 1 and 1 - mean/max of non-negative values; 0 and 0 when all are 0.
std::pair<double, double> imbalance(const std::vector<double>& v);

}  // namespace desync
