#include "workloads/chebfd/block_halo.hpp"

#include "comm/halo_exchange.hpp"

namespace desync {
namespace {

template <class T>
struct PackBlock {
  LocalColumns index;
  Values<T> u, buf;
  int nb;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t j) const {
    const std::size_t src = static_cast<std::size_t>(index(j)) * nb, dst = static_cast<std::size_t>(j) * nb;
    for (int k = 0; k < nb; ++k) buf(dst + k) = u(src + k);
  }
};

}  // namespace

template <class T>
BlockHalo<T>::BlockHalo(const HaloPlan& plan, std::int32_t rows, int nb, const Communicators& comms, const CommConfig& opt)
    : plan_(plan),
      rows_(rows),
      nb_(nb),
      send_("desync::chebfd::halo_send", plan.send_index_host.size() * static_cast<std::size_t>(nb)),
      exchange_(comms, Channel::block_halo, halo_messages(plan.send, sizeof(T) * static_cast<std::size_t>(nb)),
                halo_messages(plan.recv, sizeof(T) * static_cast<std::size_t>(nb)), opt, BufferSpace::device) {}

template <class T>
void BlockHalo<T>::pack(const Values<T>& u) {
  const auto n = static_cast<std::int32_t>(plan_.send_index_host.size());
  if (n > 0)
    Kokkos::parallel_for("desync::chebfd::halo_pack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(0, n),
                         PackBlock<T>{plan_.send_index, u, send_, nb_});
  ExecSpace().fence();  // the buffer must be complete before MPI reads it
}

template <class T>
void BlockHalo<T>::post(const Values<T>& u) {
  exchange_.post(send_.data(), u.data() + static_cast<std::size_t>(rows_) * nb_);
}

template <class T>
void BlockHalo<T>::wait() {
  exchange_.complete();
}

template class BlockHalo<double>;
template class BlockHalo<Complex>;

}  // namespace desync
