#pragma once
// The halo exchange of a distributed vector or of a block of nb vectors stored row-major
// (element (i, k) at i*nb + k), for the matrix workloads' schemes: pack the rows partners need
// (a labelled kernel, fenced before any send), post all receives first, straight into the halo
// rows, then the sends; wait() completes both. One template for the scalar vector (nb = 1) and
// the block; a message carries count * nb * sizeof(value) bytes. Buffers and requests are
// allocated once; pack(), post() and wait() allocate nothing.
#include <mpi.h>

#include <vector>

#include "comm/channels.hpp"
#include "comm/exchange.hpp"
#include "comm/halo_plan.hpp"
#include "core/types.hpp"

namespace desync {

// The exchange's messages for a plan's partner list: entry_bytes per vector row (value bytes
// times the block width), offsets relative to the send buffer or to the first halo row.
std::vector<Message> halo_messages(const std::vector<HaloPartner>& list, std::size_t entry_bytes);

// View: the vector's storage type, a rank-1 device view ((rows + halo) * nb values).
template <class View>
class HaloExchange {
 public:
  using value_type = typename View::non_const_value_type;

  // nb: values per row (1 for a vector); channel: the tags' base (comm/channels.hpp).
  HaloExchange(const HaloPlan& plan, std::int32_t rows, const Communicators& comms, const CommConfig& opt, int nb = 1,
               Channel channel = Channel::halo);

  void pack(const View& x);
  void post(const View& x);  // receives into the halo rows, x(rows * nb ...)
  void wait();
  Exchange& exchange() { return exchange_; }  // for computation that overlaps it (comm/overlap.hpp)

  const HaloPlan& plan() const { return plan_; }

 private:
  // The pack kernel, chosen once by the block width (and none without sends).
  using Packer = void (*)(const HaloExchange&, const View&);
  static void pack_nothing(const HaloExchange&, const View&) {}
  static void pack_rows(const HaloExchange& h, const View& x);
  static void pack_block(const HaloExchange& h, const View& u);

  const HaloPlan& plan_;
  std::int32_t rows_;
  int nb_;
  Values<value_type> send_;
  Exchange exchange_;
  Packer pack_;
};

extern template class HaloExchange<Vector>;
extern template class HaloExchange<Values<double>>;
extern template class HaloExchange<Values<Complex>>;

}  // namespace desync
