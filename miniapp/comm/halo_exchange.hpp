#pragma once
// The halo exchange of a distributed vector, for the SpMV and ChebFD schemes: pack the entries
// partners need (a labelled kernel, fenced before any send), post all receives first, straight
// into the halo part of the vector, then the sends; wait() completes both. Buffers and requests
// are allocated once; post() and wait() allocate nothing.
#include <mpi.h>

#include <vector>

#include "comm/exchange.hpp"
#include "comm/halo_plan.hpp"
#include "core/types.hpp"

namespace desync {

// The exchange's messages for a plan's partner list: entry_bytes per vector entry (scalar bytes
// times the block width), offsets relative to the send buffer or to the first halo entry.
std::vector<Message> halo_messages(const std::vector<HaloPartner>& list, std::size_t entry_bytes);

class HaloExchange {
 public:
  HaloExchange(const HaloPlan& plan, std::int32_t rows, const Communicators& comms, const CommConfig& opt);

  void pack(const Vector& x);
  void post(const Vector& x);  // receives into x(rows + offset ...)
  void wait();
  Exchange& exchange() { return exchange_; }  // for computation that overlaps it (comm/overlap.hpp)

  const HaloPlan& plan() const { return plan_; }

 private:
  const HaloPlan& plan_;
  std::int32_t rows_;
  Vector send_;
  Exchange exchange_;
};

}  // namespace desync
