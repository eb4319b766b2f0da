#pragma once
// Point-to-point micro-benchmarks through the communication layer (papers.md A.1's ping-pong
// table; peers.md section 5 for the OSU conventions), so that one comm option's effect on one
// message is measurable in isolation. Ranks form pairs between two groups: pair i is rank i and
// rank i + P/2 (on two nodes with block placement, one rank on each node).
//   pingpong:  rank i sends a message, rank i + P/2 receives it and sends it back; the round trip
//              is timed on rank i. Bandwidth = bytes / (round trip / 2).
//   bandwidth: rank i sends `window` messages at once, rank i + P/2 receives them all, then sends a
//              zero-byte reply; the window is timed on rank i. Bandwidth = window * bytes / time,
//              the pairs run concurrently and the aggregate is their sum.
// Every size runs [run] warmup untimed and [run] iterations timed repetitions; the timeline
// holds the timed ones, size after size. Each received message is checked byte by byte after
// the last repetition of its size.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/pingpong/pingpong_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Collective over comm; needs at least 2 ranks (its module checks: pingpong_module.cpp).
WorkloadResult run_pingpong(const Config& cfg, MPI_Comm comm);

// Peak memory of `rank` of `size`, estimated from the deck.
MemoryEstimate pingpong_memory(const Config& cfg, int rank, int size);

// Pairs taking part: [pingpong] pairs, or its default for the mode.
int pingpong_pairs(const PingpongConfig& c, int size);

// Where a rank stands: its partner (-1: in no pair), and whether it is the pair's first rank
// (the one timed; in the bandwidth mode the sender of the window).
struct PingpongRole {
  int peer = -1;
  bool first = false;
  int pair = -1;
};
PingpongRole pingpong_role(int rank, int size, int pairs);

// The rank's /comm partner list: one slot per message of a repetition at the largest size (a
// window is `window` messages; the zero-byte reply is a message of 0 bytes), so message counts
// are right; empty for a rank in no pair.
PartnerList pingpong_partners(const PingpongConfig& c, const PingpongRole& me);

// The timeline's events of one repetition (the real run's and the simulated program's).
std::vector<std::string> pingpong_event_names();

// The first rank's repetition times (reply_end - begin) of each size on its timeline `tl` (sizes
// one after the other, `reps` each, `done` rows recorded): median and minimum per size into
// med[s * pairs + pair], mn[...] (sizes not reached left alone).
void pingpong_pair_times(const Timeline& tl, std::int64_t reps, std::int64_t nsizes, int pairs, int pair,
                         std::vector<double>& med, std::vector<double>& mn);

// The run's own results from every pair's times (med, mn: [sizes x pairs]; `done` timeline rows
// recorded, sizes not reached are NaN): /pingpong's datasets, the peak bandwidth and pair count
// in /metrics, the printed table (the real run and desync simulate both call it).
void add_pingpong_results(const PingpongConfig& c, int pairs, std::int64_t reps, std::int64_t done, std::vector<double> med,
                          std::vector<double> mn, WorkloadResult& r);

}  // namespace desync
