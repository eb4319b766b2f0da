#pragma once
// The halo exchange of the stencil workload (docs/method.md, section 14): ghost width g with the
// four edge neighbours, plus the four corner neighbours (g x g blocks) when `corners` is set (CA).
// pack() gathers every outgoing strip into one send buffer (a labelled kernel, fenced before any
// send), post() hands both buffers to the communication layer (comm/exchange.hpp: [comm] decides
// how the messages travel), wait() completes them, unpack()
// scatters the receive buffer into the ghost zone (a labelled kernel, fenced). Index lists,
// buffers and requests are allocated once; the four calls allocate nothing.
#include <mpi.h>

#include <memory>

#include "comm/exchange.hpp"

#include <vector>

#include "core/types.hpp"
#include "workloads/stencil/stencil_grid.hpp"
#include "record/workload_result.hpp"

namespace desync {

struct StencilHaloPartner {
  int rank;
  int tag;             // index of the direction the message travels (channel "stencil")
  std::int64_t offset, count;  // in the send or receive buffer (values)
};

// A rank's halo partners and the padded positions of the cells sent and received, without MPI:
// what StencilHalo is built from (and desync simulate models).
struct StencilHaloPlan {
  std::vector<StencilHaloPartner> recv, send;
  std::vector<std::int64_t> send_index, recv_index;
};
StencilHaloPlan stencil_halo_plan(const StencilGrid& grid, bool corners);

// The /comm partner list of a halo: one message of 8 B per value per partner and direction
// (the real run's and the simulator's).
inline PartnerList stencil_partners(const std::vector<StencilHaloPartner>& recv, const std::vector<StencilHaloPartner>& send) {
  PartnerList l;
  for (const StencilHaloPartner& h : recv) {
    l.recv_rank.push_back(h.rank);
    l.recv_bytes.push_back(8 * h.count);
  }
  for (const StencilHaloPartner& h : send) {
    l.send_rank.push_back(h.rank);
    l.send_bytes.push_back(8 * h.count);
  }
  return l;
}

class StencilHalo {
 public:
  using Partner = StencilHaloPartner;

  StencilHalo(const StencilGrid& grid, bool corners, const Communicators& comms, const CommConfig& opt);

  void pack(const Vector& x);
  void post();
  void wait();
  void unpack(const Vector& x);

  const std::vector<Partner>& recv() const { return recv_; }
  const std::vector<Partner>& send() const { return send_; }
  std::int64_t values_sent() const { return static_cast<std::int64_t>(send_buf_.extent(0)); }

 private:
  std::vector<Partner> recv_, send_;
  Kokkos::View<std::int64_t*, MemSpace> send_index_, recv_index_;  // padded positions
  Vector send_buf_, recv_buf_;
  std::unique_ptr<Exchange> exchange_;
};

}  // namespace desync
