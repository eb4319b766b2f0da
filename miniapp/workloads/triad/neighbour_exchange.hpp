#pragma once
// The communication step of the triad-style benchmarks: one message of fixed size to each offset
// partner and from each, through the communication layer (comm/exchange.hpp), then complete.
// Buffers are allocated once; post() and wait() allocate nothing. Each message carries a stamp
// (sender, iteration, offset index) that wait() checks, so a mismatched pattern is a
// verification failure, not a silent success.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/exchange.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "config/config.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {

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
  int rank_;
  std::size_t bytes_;
  Partners partners_;
  std::vector<unsigned char> send_, recv_;  // offset index i at i * bytes_
  Exchange exchange_;
  std::int64_t iteration_ = -1;
  std::int64_t stamp_errors_ = 0;
  std::int64_t checked_ = 0;
};

}  // namespace desync
