#include "workloads/triad/neighbour_exchange.hpp"

#include <cstring>

#include "core/mpi_util.hpp"

namespace desync {
namespace {

// Offset index i travels with tag i: unique per (partner, offset) even when offsets wrap onto the
// same partner.
std::vector<Message> messages(const std::vector<int>& peers, std::size_t bytes) {
  std::vector<Message> m;
  for (std::size_t i = 0; i < peers.size(); ++i) m.push_back({peers[i], i * bytes, bytes, static_cast<int>(i)});
  return m;
}

}  // namespace

NeighbourExchange::NeighbourExchange(const Communicators& comms, const TriadConfig& pattern, const CommConfig& opt)
    : rank_(comm_rank(comms.base())),
      bytes_(static_cast<std::size_t>(pattern.message_bytes)),
      partners_(neighbour_partners(rank_, comm_size(comms.base()), pattern.offsets, pattern.boundary)),
      send_(pattern.offsets.size() * bytes_, 0),
      recv_(pattern.offsets.size() * bytes_, 0),
      exchange_(comms, Channel::offsets, messages(partners_.send_to, bytes_), messages(partners_.recv_from, bytes_), opt) {}

void NeighbourExchange::post(std::int64_t iteration) {
  iteration_ = iteration;
  if (bytes_ >= static_cast<std::size_t>(stamp_bytes))
    for (std::size_t i = 0; i < partners_.send_to.size(); ++i) {
      const std::int64_t stamp[3] = {rank_, iteration, static_cast<std::int64_t>(i)};
      std::memcpy(send_.data() + i * bytes_, stamp, sizeof stamp);
    }
  exchange_.post(send_.data(), recv_.data());
}

void NeighbourExchange::wait() {
  exchange_.complete();
  if (bytes_ < static_cast<std::size_t>(stamp_bytes)) return;
  for (std::size_t i = 0; i < partners_.recv_from.size(); ++i) {
    if (partners_.recv_from[i] < 0) continue;
    std::int64_t stamp[3];
    std::memcpy(stamp, recv_.data() + i * bytes_, sizeof stamp);
    ++checked_;
    if (stamp[0] != partners_.recv_from[i] || stamp[1] != iteration_ || stamp[2] != static_cast<std::int64_t>(i))
      ++stamp_errors_;
  }
}

}  // namespace desync
