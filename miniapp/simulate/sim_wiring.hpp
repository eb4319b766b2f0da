#pragma once
// The simulated ranks' messages wired to SimGrid mailboxes (simulate/sim_rank.cpp runs them): per
// rank and exchange the mailboxes its receives and sends use, which messages go eagerly, and
// which rendezvous messages the receiver pulls ([comm] progress = "wait").
#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "simulate/sim_platform.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {
namespace sg4 = simgrid::s4u;

// A message on its way out: the receiver's mailbox for it, its bytes, whether it goes eagerly,
// the receiver (for /messages).
struct Outgoing {
  sg4::Mailbox* box;
  std::uint64_t bytes;
  bool eager;
  int peer;
  // Pulled by the receiver (a rendezvous message under [comm] progress = "wait"): the receiver's
  // request-to-send mailbox and the message's index in the receiver's list of pulled messages;
  // else null and -1.
  sg4::Mailbox* rts_box = nullptr;
  int rts_id = -1;
};

// One rank's exchanges, wired to mailboxes: one mailbox per (receiver, exchange, message), so a
// receive matches exactly one sender's message, as MPI's (source, tag) does in the real run.
struct Incoming {
  sg4::Mailbox* box;
  bool eager;
  int peer;  // the sender
  std::int64_t bytes;
  int rts_id = -1;  // pulled: its index in this rank's list of pulled messages, else -1
};
struct Wiring {
  std::vector<std::vector<Incoming>> in;   // [exchange][message]
  std::vector<std::vector<Outgoing>> out;  // [exchange][message]
  sg4::Mailbox* rts_box = nullptr;         // pulled messages' requests to send arrive here; null: none
  int pulled = 0;                          // how many of the rank's incoming messages are pulled
};

// Every rank's wiring for the program (fragments cut as [comm] fragment_bytes cuts them, eager
// or rendezvous from the platform's limits inside and between nodes). eager_boxes[r]: the
// mailboxes whose messages land at rank r at once (eager messages and requests to send), which
// the caller gives r's actor as their permanent receiver. Throws std::logic_error for a send
// nobody receives or a receive nobody sends.
std::vector<Wiring> wire(const Config& cfg, const Platform& platform, const Program& prog, const SimHosts& hosts,
                         std::vector<std::vector<sg4::Mailbox*>>& eager_boxes);

}  // namespace desync::sim
