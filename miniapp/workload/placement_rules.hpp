#pragma once
// Rank-count rules the collective workloads share ([placement] ranks_per_node and active_ppn,
// dense blocks on a mesh): their modules' validate_ranks and validate_layout call these.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "config/config.hpp"

namespace desync {

// "P rank(s)" or "A active rank(s) of P ([placement] active_ppn = k)", for messages.
std::string ranks_phrase(const Config& cfg, int active, int nranks);

// The kernel's ranks when they follow from the deck and the rank count alone, else -1 (nodes
// detected at run time with an active subset: the layout rule checks those).
int planned_active_ranks(const PlacementConfig& pl, int nranks);

// [placement] ranks_per_node <= the run's ranks.
void placement_ranks(const Config& cfg, int nranks);

// The kernel's ranks on the nodes as they are (collective over comm).
int active_ranks_in_layout(const Config& cfg, MPI_Comm comm, int* nranks);

// Blocks of ceil(n / p) rows must leave none of the p block rows empty; the error names `key`
// and the nearest n that pass.
void check_blocks(const Config& cfg, const char* key, std::int64_t n, int p);

}  // namespace desync
