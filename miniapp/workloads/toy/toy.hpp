#pragma once
// The communication-imbalance toys (papers.md D.3, noOverlapToy and overlapToy): a compute phase
// of fixed, identical duration on every rank, a point-to-point phase that is not balanced
// (every (sender, target) message has its own random size, drawn once from [run] seed and reused
// every iteration), and a global synchronization ([comm] sync, default "allreduce") that spreads
// the slowest rank's time to everybody. Per iteration:
//   no overlap: post receives, send (the [comm] send mode; default "blocking"), wait, compute;
//   overlap:    post receives, send, compute part 1, wait, compute part 2;
// then the delay slot and the sync. Rank r sends to r+1 .. r+degree (mod P) and receives from
// r-1 .. r-degree.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/toy/toy_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Bytes of message k from `sender` to `target` (the same on both sides, no communication).
std::int64_t toy_message_bytes(const ToyConfig& c, std::uint64_t seed, int sender, int target, int k);

// Targets per rank: [toy] degree, or P - 1 (all others) for 0.
int toy_degree(const ToyConfig& c, int size);

// The timeline's events: no overlap: begin, post_end, wait_end, compute_end; overlap: begin,
// post_end, part1_end, wait_end, part2_end; then delay_end, sync_end.
std::vector<std::string> toy_event_names(bool overlap);

WorkloadResult run_toy(const Config& cfg, MPI_Comm comm);
MemoryEstimate toy_memory(const Config& cfg, int rank, int size);

}  // namespace desync
