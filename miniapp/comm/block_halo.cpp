#include "comm/block_halo.hpp"

namespace desync {
namespace {
constexpr int tag = 2100;

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

// Doubles per value of T: messages go as MPI_DOUBLE.
template <class T>
constexpr int doubles = static_cast<int>(sizeof(T) / sizeof(double));
}  // namespace

template <class T>
BlockHalo<T>::BlockHalo(const HaloPlan& plan, std::int32_t rows, int nb, MPI_Comm comm)
    : plan_(plan),
      rows_(rows),
      nb_(nb),
      comm_(comm),
      send_("desync::chebfd::halo_send", plan.send_index_host.size() * static_cast<std::size_t>(nb)),
      requests_(plan.recv.size() + plan.send.size(), MPI_REQUEST_NULL) {}

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
  std::size_t r = 0;
  const int w = nb_ * doubles<T>;
  for (const auto& p : plan_.recv)
    MPI_Irecv(reinterpret_cast<double*>(u.data() + (static_cast<std::size_t>(rows_) + p.offset) * nb_), p.count * w,
              MPI_DOUBLE, p.rank, tag, comm_, &requests_[r++]);
  for (const auto& p : plan_.send)
    MPI_Isend(reinterpret_cast<const double*>(send_.data() + static_cast<std::size_t>(p.offset) * nb_), p.count * w,
              MPI_DOUBLE, p.rank, tag, comm_, &requests_[r++]);
}

template <class T>
void BlockHalo<T>::wait() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

template class BlockHalo<double>;
template class BlockHalo<Complex>;

}  // namespace desync
