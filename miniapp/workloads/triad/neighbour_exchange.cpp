#include "workloads/triad/neighbour_exchange.hpp"

#include <algorithm>
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

// Where a message of `bytes` carries its stamps: the start of every piece that holds a whole
// stamp (the first only, where pieces are shorter than a stamp), and the last stamp_bytes where
// they overlap no other stamp.
std::vector<std::size_t> triad_stamp_positions(std::size_t bytes, std::int64_t fragment_bytes) {
  const std::size_t stamp = NeighbourExchange::stamp_bytes;
  std::vector<std::size_t> at;
  if (bytes < stamp) return at;
  const auto piece = static_cast<std::size_t>(std::min<std::int64_t>(piece_limit(fragment_bytes), static_cast<std::int64_t>(bytes)));
  if (piece >= stamp)
    for (std::size_t p = 0; p + stamp <= bytes; p += piece) at.push_back(p);
  else
    at.push_back(0);
  if (bytes - stamp >= at.back() + stamp) at.push_back(bytes - stamp);  // where it overlaps none
  return at;
}

NeighbourExchange::NeighbourExchange(const Communicators& comms, const TriadConfig& pattern, const CommConfig& opt)
    : rank_(comm_rank(comms.base())),
      bytes_(static_cast<std::size_t>(pattern.message_bytes)),
      partners_(neighbour_partners(rank_, comm_size(comms.base()), pattern.offsets, pattern.boundary)),
      stamp_at_(triad_stamp_positions(bytes_, opt.fragment_bytes)),
      send_(pattern.offsets.size() * bytes_, 0),
      recv_(pattern.offsets.size() * bytes_, 0),
      exchange_(comms, Channel::offsets, messages(partners_.send_to, bytes_), messages(partners_.recv_from, bytes_), opt) {}

void NeighbourExchange::post(std::int64_t iteration) {
  iteration_ = iteration;
  for (std::size_t i = 0; i < partners_.send_to.size(); ++i)
    for (const std::size_t at : stamp_at_) {
      const std::int64_t stamp[3] = {rank_, iteration, where(i, at)};
      std::memcpy(send_.data() + i * bytes_ + at, stamp, sizeof stamp);
    }
  exchange_.post(send_.data(), recv_.data());
}

void NeighbourExchange::wait() {
  exchange_.complete();
  if (stamp_at_.empty()) return;
  for (std::size_t i = 0; i < partners_.recv_from.size(); ++i) {
    if (partners_.recv_from[i] < 0) continue;
    ++checked_;
    bool whole = true;
    for (const std::size_t at : stamp_at_) {
      std::int64_t stamp[3];
      std::memcpy(stamp, recv_.data() + i * bytes_ + at, sizeof stamp);
      whole = whole && stamp[0] == partners_.recv_from[i] && stamp[1] == iteration_ && stamp[2] == where(i, at);
    }
    stamp_errors_ += whole ? 0 : 1;  // a message counts once, however many of its pieces are wrong
  }
}

}  // namespace desync
