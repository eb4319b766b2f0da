#pragma once
// What a workload adds to the size of its result file (docs/output.md), for the output estimate
// made before a run (commands/output_estimate.hpp): the part of the file's layout that only the
// workload knows. Every count is per timeline row and rank, for the widest rank where rows are
// padded to the longest (/messages, /collectives, /comm).
#include <cstdint>

namespace desync {

struct OutputShape {
  int events = 0;                   // timeline events per row; 0: the shared iteration events
  std::int64_t warmup = -1;         // warm-up rows of the timeline; -1: [run] warmup
  double messages_per_row = 0.0;    // message events with [comm] record_messages (sends and receives)
  double collectives_per_row = 0.0; // collective parts with [comm] record_messages; 0: no /collectives
  double partners = 2.0;            // /comm partners of the widest rank
  int phases = 0;                   // /summary phases; 0: events - 1
  int datasets = 10;                // its own datasets and /metrics scalars
  int groups = 0;                   // groups its own datasets add
  double bytes = 0.0;               // their bytes, every rank's together

  // A halo exchange with at most `bound` partners (the shipped partitions' largest), a send and a
  // receive each per row: the matrix workloads' shape of /comm and /messages.
  void halo(int ranks, int bound) {
    partners = ranks - 1 < bound ? ranks - 1 : bound;
    messages_per_row = 2.0 * partners;
  }
};

}  // namespace desync
