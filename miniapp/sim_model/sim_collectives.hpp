#pragma once
// Collectives in `desync simulate` as the point-to-point algorithms the collective study's model
// assumes (papers.md E.4; docs/simulate.md, "Collectives"): a broadcast as a binomial scatter
// followed by a ring allgather, T = a (log p + p - 1) + 2 b (p - 1) n / p; a reduction as
// Rabenseifner's reduce-scatter by recursive halving followed by a binomial gather to the root,
// T = 2 a log p + 2 b (p - 1) n / p plus the local sums; an allreduce as Rabenseifner's
// reduce-scatter followed by an allgather by recursive doubling. Each algorithm is a list of stages; a
// stage's messages travel at once, and a reduction's receiver sums what it received before its
// next stage. N_DUP parts of one operation (each on its own duplicated communicator in the real
// run) are pipelined as a progress engine does it inside MPI: every part's first stage is posted
// at once, then part by part, stage by stage, each part's next stage is posted as soon as its
// current one is done and summed. Needs no SimGrid.
#include <cstdint>
#include <vector>

#include "sim_model/sim_program.hpp"

namespace desync::sim {

// One message of a stage: elements [begin, end) of the operation's buffer, between global ranks.
struct StageMessage {
  int from = -1, to = -1;
  std::int64_t begin = 0, end = 0;
};
// One stage: its messages; the receivers of a reduction sum what they received after it.
struct CollStage {
  std::vector<StageMessage> messages;
  bool sums = false;
};

enum class CollKind { bcast, reduce, allreduce };

// The stages of one collective over `group` (global ranks; group[root] is the root) on `count`
// elements. Every group of the same size gets the same number of stages (a stage where a rank
// has nothing to do is empty for it), so concurrent groups run in lock-step stage by stage.
std::vector<CollStage> collective_stages(CollKind kind, const std::vector<int>& group, int root, std::int64_t count);

// How many stages collective_stages gives a group of p ranks.
int collective_stage_count(CollKind kind, int p);

// The steps of one operation appended to a program: parts[c] is part c's stages (concurrent
// groups merged, stage by stage; a part may also be a chain of operations, e.g. a reduction and
// the broadcast of its result, or a single transfer). Adds the exchanges (one per part and
// stage) and, for summing stages, the amount slots (bytes streamed by the sum: both operands
// read, the result written) to every rank's RankWork, and returns the steps in two pieces:
// `posts` (the first stage of every part) and `rest` (everything after: stage s of every part
// still running, part by part, then stage s + 1). A message from a rank to itself is a copy
// and moves nothing.
struct CollectiveSteps {
  std::vector<Step> posts, rest;
};
CollectiveSteps append_collective(Program& p, const std::vector<std::vector<CollStage>>& parts, std::int64_t element_bytes);

// Concurrent collectives (disjoint groups, the same stage count) as one list of stages.
std::vector<CollStage> merge_stages(const std::vector<std::vector<CollStage>>& concurrent);

}  // namespace desync::sim
