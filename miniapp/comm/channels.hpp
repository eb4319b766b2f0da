#pragma once
// The one place for MPI tags. Every exchange belongs to a channel; a message's tag is its
// channel's base plus the exchange's own small tag (an offset index, a direction), so traffic of
// different exchanges can never match each other's receives. MPI guarantees tags up to 32767.
namespace desync {

enum class Channel : int { triad = 1, halo = 2, block_halo = 3, stencil = 4, lanczos = 5, clock = 6, bench = 7, pingpong = 8, toy = 9 };

inline constexpr int channel_tags = 4096;  // tags per channel: an exchange's own tags are 0..4095

inline int mpi_tag(Channel c, int tag) { return static_cast<int>(c) * channel_tags + tag; }

}  // namespace desync
