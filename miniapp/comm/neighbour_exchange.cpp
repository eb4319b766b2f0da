#include "comm/neighbour_exchange.hpp"

#include <cstring>

#include "core/mpi_util.hpp"

namespace desync {
namespace {
constexpr int tag_base = 1000;  // + offset index: unique per (partner, offset) even when wrapped
}

NeighbourExchange::NeighbourExchange(MPI_Comm comm, const CommConfig& cfg)
    : comm_(comm),
      rank_(comm_rank(comm)),
      bytes_(cfg.message_bytes),
      partners_(neighbour_partners(rank_, comm_size(comm), cfg.offsets, cfg.boundary)) {
  const std::size_t k = cfg.offsets.size();
  send_.assign(k, std::vector<unsigned char>(static_cast<std::size_t>(bytes_), 0));
  recv_.assign(k, std::vector<unsigned char>(static_cast<std::size_t>(bytes_), 0));
  requests_.assign(2 * k, MPI_REQUEST_NULL);
}

void NeighbourExchange::post(std::int64_t iteration) {
  iteration_ = iteration;
  const int count = static_cast<int>(bytes_);
  const std::size_t k = send_.size();
  for (std::size_t i = 0; i < k; ++i)
    if (partners_.recv_from[i] >= 0)
      MPI_Irecv(recv_[i].data(), count, MPI_BYTE, partners_.recv_from[i], tag_base + static_cast<int>(i),
                comm_, &requests_[i]);
  for (std::size_t i = 0; i < k; ++i) {
    if (partners_.send_to[i] < 0) continue;
    if (bytes_ >= stamp_bytes) {
      const std::int64_t stamp[3] = {rank_, iteration, static_cast<std::int64_t>(i)};
      std::memcpy(send_[i].data(), stamp, sizeof stamp);
    }
    MPI_Isend(send_[i].data(), count, MPI_BYTE, partners_.send_to[i], tag_base + static_cast<int>(i),
              comm_, &requests_[k + i]);
  }
}

void NeighbourExchange::wait() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (bytes_ < stamp_bytes) return;
  for (std::size_t i = 0; i < recv_.size(); ++i) {
    if (partners_.recv_from[i] < 0) continue;
    std::int64_t stamp[3];
    std::memcpy(stamp, recv_[i].data(), sizeof stamp);
    ++checked_;
    if (stamp[0] != partners_.recv_from[i] || stamp[1] != iteration_ ||
        stamp[2] != static_cast<std::int64_t>(i))
      ++stamp_errors_;
  }
}

}  // namespace desync
