#pragma once
// The one place for MPI tags. Every exchange belongs to a channel; a message's tag is its
// channel's base plus the exchange's own small tag (an offset index, a direction), so traffic of
// different exchanges can never match each other's receives. MPI guarantees tags up to 32767.
namespace desync {

// Named for the shape of the traffic, never for a workload (docs/design.md): partners at fixed
// rank offsets; a matrix halo (scalar or block vectors); a process-grid halo; set-up exchanges
// before the measured loop; the clock synchronization; benchmarks; rank pairs; targets of
// random-sized messages. Their values are the tags' bases and never change meaning.
enum class Channel : int {
  offsets = 1,
  halo = 2,
  block_halo = 3,
  grid_halo = 4,
  setup = 5,
  clock = 6,
  bench = 7,
  pairs = 8,
  targets = 9
};

// Tags per channel: an exchange's own tags are 0..2047. Every tag stays within the 32767 the MPI
// standard guarantees (MPI_TAG_UB >= 32767; Open MPI and MPICH allow far more, others do not).
inline constexpr int channel_tags = 2048;
inline constexpr int max_tag = (static_cast<int>(Channel::targets) + 1) * channel_tags - 1;
static_assert(max_tag <= 32767, "a channel's tags beyond the MPI standard's guaranteed MPI_TAG_UB");

inline int mpi_tag(Channel c, int tag) { return static_cast<int>(c) * channel_tags + tag; }

}  // namespace desync
