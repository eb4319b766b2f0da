#include "simulate/sim_wiring.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace desync::sim {
namespace {

// Rendezvous messages under [comm] progress = "wait" are pulled (docs/simulate.md, "Progress"):
// without a progress thread an MPI library moves a rendezvous message only inside MPI calls. The
// sender posts its data and a request to send (RTS: no payload, one latency, landing at the
// receiver whatever it does); the receiver takes the RTS only while it is inside MPI (its post,
// its blocking sends, its wait) and then starts the transfer, as Open MPI's receiver-driven
// protocols (CMA over shared memory, RDMA get) do. Under progress = "thread" a transfer starts
// as soon as both sides posted.
bool pulls(const Config& cfg) { return cfg.comm.progress == ProgressMode::wait; }

// Messages cut into pieces as [comm] fragment_bytes cuts them in the real run.
std::vector<Message> pieces(const std::vector<Message>& whole, std::int64_t fragment_bytes) {
  std::vector<Message> v;
  const std::int64_t limit = piece_limit(fragment_bytes);
  for (const Message& m : whole) {
    const std::int64_t n = message_pieces(m.bytes, fragment_bytes);
    for (std::int64_t i = 0; i < n; ++i) v.push_back({m.peer, std::min(limit, m.bytes - i * limit), m.channel});
  }
  return v;
}

}  // namespace

std::vector<Wiring> wire(const Config& cfg, const Platform& platform, const Program& prog, const SimHosts& hosts,
                         std::vector<std::vector<sg4::Mailbox*>>& eager_boxes) {
  const auto ranks = static_cast<std::int64_t>(prog.ranks.size());
  std::vector<Wiring> w(prog.ranks.size());
  eager_boxes.assign(prog.ranks.size(), {});
  // (sender, receiver, exchange) -> the receiver's mailboxes for that sender, in posting order.
  std::unordered_map<std::int64_t, std::vector<Incoming*>> waiting;
  std::unordered_map<std::int64_t, std::size_t> taken;
  std::int64_t exchanges = 0;  // channels: exchange indices and Message::channel
  for (const RankWork& r : prog.ranks) {
    exchanges = std::max<std::int64_t>(exchanges, static_cast<std::int64_t>(r.exchange.size()));
    for (const Exchange& x : r.exchange)
      for (const auto* list : {&x.recv, &x.send})
        for (const Message& m : *list) exchanges = std::max<std::int64_t>(exchanges, m.channel + 1);
  }
  const auto key = [&](std::int64_t s, std::int64_t r, std::int64_t k) { return (s * ranks + r) * exchanges + k; };
  const auto channel = [](const Message& m, std::size_t k) { return m.channel >= 0 ? static_cast<std::int64_t>(m.channel) : static_cast<std::int64_t>(k); };
  for (std::int64_t r = 0; r < ranks; ++r) {
    const RankWork& work = prog.ranks[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < work.exchange.size(); ++k) {
      w[static_cast<std::size_t>(r)].in.emplace_back();
      std::size_t j = 0;
      const std::vector<Message> in = pieces(work.exchange[k].recv, cfg.comm.fragment_bytes);
      std::vector<Incoming>& boxes = w[static_cast<std::size_t>(r)].in.back();
      boxes.reserve(in.size());  // stable addresses for `waiting`
      for (const Message& m : in) {
        boxes.push_back({sg4::Mailbox::by_name("r" + std::to_string(r) + "x" + std::to_string(k) + "m" + std::to_string(j++)), false,
                         m.peer, m.bytes});
        waiting[key(m.peer, r, channel(m, k))].push_back(&boxes.back());
      }
    }
  }
  for (std::int64_t s = 0; s < ranks; ++s) {
    const RankWork& work = prog.ranks[static_cast<std::size_t>(s)];
    for (std::size_t k = 0; k < work.exchange.size(); ++k) {
      w[static_cast<std::size_t>(s)].out.emplace_back();
      for (const Message& m : pieces(work.exchange[k].send, cfg.comm.fragment_bytes)) {
        const std::int64_t id = key(s, m.peer, channel(m, k));
        auto it = waiting.find(id);
        std::size_t& next = taken[id];
        if (it == waiting.end() || next >= it->second.size())
          throw std::logic_error("simulate: rank " + std::to_string(s) + " sends to rank " + std::to_string(m.peer) +
                                 " in exchange " + std::to_string(k) + " a message nobody receives");
        Incoming* in = it->second[next++];
        const bool same_node = hosts.place[static_cast<std::size_t>(s)].node == hosts.place[static_cast<std::size_t>(m.peer)].node;
        in->eager = m.bytes <= (same_node ? platform.eager_limit_intra : platform.eager_limit_inter);
        Outgoing o{in->box, static_cast<std::uint64_t>(m.bytes), in->eager, m.peer};
        if (!in->eager && pulls(cfg)) {
          Wiring& to = w[static_cast<std::size_t>(m.peer)];
          if (!to.rts_box) {
            to.rts_box = sg4::Mailbox::by_name("rts" + std::to_string(m.peer));
            eager_boxes[static_cast<std::size_t>(m.peer)].push_back(to.rts_box);  // requests land at once
          }
          in->rts_id = to.pulled++;
          o.rts_box = to.rts_box;
          o.rts_id = in->rts_id;
        }
        w[static_cast<std::size_t>(s)].out.back().push_back(o);
        if (in->eager) eager_boxes[static_cast<std::size_t>(m.peer)].push_back(in->box);
      }
    }
  }
  for (const auto& [id, boxes] : waiting)
    if (taken[id] != boxes.size()) throw std::logic_error("simulate: a posted receive has no matching send");
  return w;
}

}  // namespace desync::sim
