#include "comm/halo_exchange.hpp"

namespace desync {
namespace {
constexpr int tag = 2000;

struct Pack {
  LocalColumns index;
  Vector x, buf;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const { buf(i) = x(index(i)); }
};
}  // namespace

HaloExchange::HaloExchange(const HaloPlan& plan, std::int32_t rows, MPI_Comm comm)
    : plan_(plan),
      rows_(rows),
      comm_(comm),
      send_("desync::comm::halo_send", plan.send_index_host.size()),
      requests_(plan.recv.size() + plan.send.size(), MPI_REQUEST_NULL) {}

void HaloExchange::pack(const Vector& x) {
  const auto n = static_cast<std::int32_t>(send_.extent(0));
  if (n > 0)
    Kokkos::parallel_for("desync::comm::halo_pack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(0, n),
                         Pack{plan_.send_index, x, send_});
  ExecSpace().fence();  // the buffer must be complete before MPI reads it
}

void HaloExchange::post(const Vector& x) {
  std::size_t r = 0;
  for (const auto& p : plan_.recv)
    MPI_Irecv(x.data() + rows_ + p.offset, p.count, MPI_DOUBLE, p.rank, tag, comm_, &requests_[r++]);
  for (const auto& p : plan_.send)
    MPI_Isend(send_.data() + p.offset, p.count, MPI_DOUBLE, p.rank, tag, comm_, &requests_[r++]);
}

void HaloExchange::wait() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

}  // namespace desync
