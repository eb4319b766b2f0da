#include "comm/halo_exchange.hpp"

#include <string>

namespace desync {
namespace {

// A vector's pack copies one value per row, a block's nb (chosen once: HaloExchange's pack_).
template <class View, class T>
struct PackRows {
  LocalColumns index;
  View x;
  Values<T> buf;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const { buf(i) = x(index(i)); }
};

template <class View, class T>
struct PackBlock {
  LocalColumns index;
  View u;
  Values<T> buf;
  int nb;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t j) const {
    const std::size_t src = static_cast<std::size_t>(index(j)) * nb, dst = static_cast<std::size_t>(j) * nb;
    for (int k = 0; k < nb; ++k) buf(dst + k) = u(src + k);
  }
};

}  // namespace

// One message per partner (tag 0), counted in bytes of `entry_bytes` per row.
std::vector<Message> halo_messages(const std::vector<HaloPartner>& list, std::size_t entry_bytes) {
  std::vector<Message> m;
  for (const auto& p : list)
    m.push_back({p.rank, static_cast<std::size_t>(p.offset) * entry_bytes, static_cast<std::size_t>(p.count) * entry_bytes, 0});
  return m;
}

template <class View>
HaloExchange<View>::HaloExchange(const HaloPlan& plan, std::int32_t rows, const Communicators& comms, const CommConfig& opt, int nb,
                                 Channel channel)
    : plan_(plan),
      rows_(rows),
      nb_(nb),
      send_("desync::comm::halo_send", plan.send_index_host.size() * static_cast<std::size_t>(nb)),
      exchange_(comms, channel, halo_messages(plan.send, sizeof(value_type) * static_cast<std::size_t>(nb)),
                halo_messages(plan.recv, sizeof(value_type) * static_cast<std::size_t>(nb)), opt, BufferSpace::device),
      pack_(plan.send_index_host.empty() ? pack_nothing : nb == 1 ? pack_rows : pack_block) {}

template <class View>
void HaloExchange<View>::pack_rows(const HaloExchange& h, const View& x) {
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>> rows(0, static_cast<std::int32_t>(h.plan_.send_index_host.size()));
  static const std::string label = "desync::comm::halo_pack";  // once: Kokkos copies a literal per launch
  Kokkos::parallel_for(label, rows, PackRows<View, value_type>{h.plan_.send_index, x, h.send_});
}

template <class View>
void HaloExchange<View>::pack_block(const HaloExchange& h, const View& u) {
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>> rows(0, static_cast<std::int32_t>(h.plan_.send_index_host.size()));
  static const std::string label = "desync::comm::halo_pack_block";
  Kokkos::parallel_for(label, rows, PackBlock<View, value_type>{h.plan_.send_index, u, h.send_, h.nb_});
}

template <class View>
void HaloExchange<View>::pack(const View& x) {
  pack_(*this, x);
  ExecSpace().fence();  // the buffer must be complete before MPI reads it
}

template <class View>
void HaloExchange<View>::post(const View& x) {
  exchange_.post(send_.data(), x.data() + static_cast<std::size_t>(rows_) * nb_);
}

template <class View>
void HaloExchange<View>::wait() {
  exchange_.complete();
}

template class HaloExchange<Vector>;
template class HaloExchange<Values<double>>;
template class HaloExchange<Values<Complex>>;

}  // namespace desync
