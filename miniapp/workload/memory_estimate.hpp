#pragma once
// What one rank of each workload will hold at its peak, estimated from the deck alone before
// anything large is allocated (docs/decks.md, "Memory"). Matrix sizes come from a sample of the
// generator's rows, so the estimate costs milliseconds even for matrices of 10^10 rows.
#include "config/config.hpp"
#include "core/memory.hpp"
#include "matrix/generator.hpp"

namespace desync {

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size);

// Nonzeros of rows [begin, end) estimated from at most `samples` evenly spaced rows.
double sampled_nnz(const MatrixGenerator& g, GlobalIndex begin, GlobalIndex end, int samples = 2048);

}  // namespace desync
