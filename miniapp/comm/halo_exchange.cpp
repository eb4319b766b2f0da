#include "comm/halo_exchange.hpp"

namespace desync {
namespace {

struct Pack {
  LocalColumns index;
  Vector x, buf;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const { buf(i) = x(index(i)); }
};
}  // namespace

// One message per partner (tag 0), counted in bytes of `scalar_bytes * nb` per entry.
std::vector<Message> halo_messages(const std::vector<HaloPartner>& list, std::size_t entry_bytes) {
  std::vector<Message> m;
  for (const auto& p : list)
    m.push_back({p.rank, static_cast<std::size_t>(p.offset) * entry_bytes, static_cast<std::size_t>(p.count) * entry_bytes, 0});
  return m;
}

HaloExchange::HaloExchange(const HaloPlan& plan, std::int32_t rows, const Communicators& comms, const CommConfig& opt)
    : plan_(plan),
      rows_(rows),
      send_("desync::comm::halo_send", plan.send_index_host.size()),
      exchange_(comms, Channel::halo, halo_messages(plan.send, sizeof(double)), halo_messages(plan.recv, sizeof(double)), opt,
                BufferSpace::device) {}

void HaloExchange::pack(const Vector& x) {
  const auto n = static_cast<std::int32_t>(send_.extent(0));
  if (n > 0)
    Kokkos::parallel_for("desync::comm::halo_pack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(0, n),
                         Pack{plan_.send_index, x, send_});
  ExecSpace().fence();  // the buffer must be complete before MPI reads it
}

void HaloExchange::post(const Vector& x) { exchange_.post(send_.data(), x.data() + rows_); }

void HaloExchange::wait() { exchange_.complete(); }

}  // namespace desync
