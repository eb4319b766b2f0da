#pragma once
// What the saturation sweep and the STREAM table need to know about the machine (hwloc, this
// process only, no MPI): the cores of the contention domain the process is bound to, the
// last-level caches of the node, and the array sizes that follow from them.
#include <cstdint>

namespace desync::saturation {

// Cores of the NUMA node that holds the whole CPU binding of this process (the memory
// contention domain of papers.md B.5); all cores of the node when the binding spans several
// NUMA nodes or the process is not bound. At least 1.
int domain_cores();

// The node's last-level caches summed: all L3 caches, or all L2 caches where hwloc reports no
// L3; 0 if unknown.
double node_llc_bytes();

// Elements per array of the saturation sweep when [saturation] size = 0: max(2^24, 4 x the
// node's last-level caches / 8 B), so that each array is at least four times the caches
// (STREAM's rule) whatever N.
std::int64_t default_sweep_elements(double llc_bytes);

// Elements per array and rank of the STREAM table when [run] stream_size = 0: the node's ranks
// together hold arrays of at least four times the caches each: max(2^22, 4 llc / (8 ranks)).
std::int64_t default_stream_elements(double llc_bytes, int ranks_on_node);

}  // namespace desync::saturation
