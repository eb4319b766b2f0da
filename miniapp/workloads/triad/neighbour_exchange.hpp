#pragma once
// The communication step of the triad-style benchmarks: one message of fixed size to each offset
// partner and from each, through the communication layer (comm/exchange.hpp), then complete.
// Buffers are allocated once; post() and wait() allocate nothing. Each message carries stamps
// (sender, iteration, offset index and position) that wait() checks, so a mismatched pattern is
// a verification failure, not a silent success: one at the start of every piece [comm]
// fragment_bytes cuts it into (where a piece holds one) and one at its end, so a piece that did
// not arrive, or arrived in another's place, fails too (a stamp at the start alone checked the
// first piece only).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/exchange.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "config/config.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {

// Positions of the stamps in a message of `bytes` cut by [comm] fragment_bytes (0: whole).
std::vector<std::size_t> triad_stamp_positions(std::size_t bytes, std::int64_t fragment_bytes);

class NeighbourExchange {
 public:
  NeighbourExchange(const Communicators& comms, const TriadConfig& pattern, const CommConfig& opt);

  void post(std::int64_t iteration);
  void wait();

  const Partners& partners() const { return partners_; }
  std::int64_t stamp_errors() const { return stamp_errors_; }
  std::int64_t messages_checked() const { return checked_; }
  static constexpr std::int64_t stamp_bytes = 3 * sizeof(std::int64_t);

 private:
  // A stamp's third word: the offset index and the stamp's position in its message.
  static std::int64_t where(std::size_t offset_index, std::size_t at) {
    return static_cast<std::int64_t>(at) * (std::int64_t{1} << 20) + static_cast<std::int64_t>(offset_index);
  }

  int rank_;
  std::size_t bytes_;
  Partners partners_;
  std::vector<std::size_t> stamp_at_;       // positions of the stamps within a message
  std::vector<unsigned char> send_, recv_;  // offset index i at i * bytes_
  Exchange exchange_;
  std::int64_t iteration_ = -1;
  std::int64_t stamp_errors_ = 0;
  std::int64_t checked_ = 0;
};

}  // namespace desync
