#include "workloads/toy/toy.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "comm/communicators.hpp"
#include "comm/exchange.hpp"
#include "comm/overlap.hpp"
#include "core/mix64.hpp"
#include "core/mpi_util.hpp"
#include "inject/busy_work.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"

namespace desync {
namespace {

// The compute phase: every host thread of the rank busy for `seconds` (core-bound divisions,
// no memory traffic), as the toys' OpenMP parallel loop of fixed duration.
void compute(double seconds) {
  if (seconds <= 0.0) return;
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string compute_label = "desync::toy::compute";
  Kokkos::parallel_for(compute_label,
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, compat::host_concurrency()),
                       [=](int) { busy_divide(seconds); });
  Kokkos::DefaultHostExecutionSpace().fence();
}

// A message's bytes past its stamp: a hash of (position, sender, target, k), without a period
// (core/mix64.hpp), so a fragment in another one's place does not hold the expected bytes.
inline unsigned char pattern(std::size_t i, int sender, int target, int k) {
  return static_cast<unsigned char>(
      mix64(i, static_cast<std::uint64_t>(sender), static_cast<std::uint64_t>(target), static_cast<std::uint64_t>(k)) >> 56);
}

constexpr std::size_t stamp_bytes = 2 * sizeof(std::int64_t);  // sender, iteration

struct Slot {  // one message in a buffer
  int peer, k;
  std::size_t offset, bytes;
};

}  // namespace

int toy_degree(const ToyConfig& c, int size) {
  return c.degree > 0 ? static_cast<int>(c.degree) : size - 1;
}

std::int64_t toy_message_bytes(const ToyConfig& c, std::uint64_t seed, int sender, int target, int k) {
  const std::uint64_t span = static_cast<std::uint64_t>(c.max_bytes - c.min_bytes) + 1;
  // A hash of (seed, sender, target, k): both sides draw the same size without communicating.
  const std::uint64_t h =
      mix64(seed, static_cast<std::uint64_t>(sender), static_cast<std::uint64_t>(target), static_cast<std::uint64_t>(k));
  return c.min_bytes + static_cast<std::int64_t>(h % span);
}

std::vector<std::string> toy_event_names(bool overlap) {
  if (overlap) return {"begin", "post_end", "part1_end", "wait_end", "part2_end", "delay_end", "sync_end"};
  return {"begin", "post_end", "wait_end", "compute_end", "delay_end", "sync_end"};
}

WorkloadResult run_toy(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::toy");
  const ToyConfig& c = cfg.params.get<ToyConfig>();
  const int rank = comm_rank(comm), size = comm_size(comm);
  const int g = size > 1 ? toy_degree(c, size) : 0;
  const int per = static_cast<int>(c.messages);

  // Sends to r+j, receives from r-j (j = 1..g); message k of a pair has tag k.
  std::vector<Slot> out, in;
  std::vector<Message> sends, recvs;
  std::size_t send_total = 0, recv_total = 0;
  for (int j = 1; j <= g; ++j) {
    const int to = (rank + j) % size, from = (rank - j % size + size) % size;
    for (int k = 0; k < per; ++k) {
      const auto sb = static_cast<std::size_t>(toy_message_bytes(c, cfg.run.seed, rank, to, k));
      const auto rb = static_cast<std::size_t>(toy_message_bytes(c, cfg.run.seed, from, rank, k));
      out.push_back({to, k, send_total, sb});
      in.push_back({from, k, recv_total, rb});
      sends.push_back({to, send_total, sb, k});
      recvs.push_back({from, recv_total, rb, k});
      send_total += sb;
      recv_total += rb;
    }
  }
  std::vector<unsigned char> send(send_total), recv(recv_total);
  for (const Slot& m : out)
    for (std::size_t i = stamp_bytes; i < m.bytes; ++i) send[m.offset + i] = pattern(i, rank, m.peer, m.k);

  const Communicators comms(comm, cfg.comm);
  Exchange x(comms, Channel::targets, sends, recvs, cfg.comm);
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  const bool overlap = c.overlap;
  WorkloadResult r(Timeline(toy_event_names(overlap), total, cfg.run.warmup));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();
  r.work_phase = "exec";
  r.composites.push_back({"exec", overlap ? std::vector<std::string>{"part1", "part2"} : std::vector<std::string>{"compute"}});
  r.composites.push_back({"comm", {"post", "wait"}});
  // One /comm slot per message (a target with k messages appears k times), so the message
  // counts of the balance metrics are the messages sent.
  for (std::size_t i = 0; i < out.size(); ++i) {
    r.partners.send_rank.push_back(out[i].peer);
    r.partners.recv_rank.push_back(in[i].peer);
    r.partners.send_bytes.push_back(static_cast<std::int64_t>(out[i].bytes));
    r.partners.recv_bytes.push_back(static_cast<std::int64_t>(in[i].bytes));
  }
  ExperimentLoop loop(cfg, comm, r, cfg.comm.sync);
  const double part1 = overlap ? c.compute * c.part1 : 0.0, part2 = c.compute - part1;
  // progress = "test": part 1 runs in chunks of test_interval microseconds (an item is 1 us).
  const auto part1_us = static_cast<std::int64_t>(part1 * 1e6 + 0.5);
  std::int64_t checked = 0, wrong = 0;
  // After the post, chosen once: wait then compute (no overlap), or part 1, wait, part 2.
  const auto plain = [&](std::int64_t it) {
    x.complete();
    tl.mark(it, 2);
    compute(part2);
    tl.mark(it, 3);
  };
  const auto overlapped = [&](std::int64_t it) {
    overlap_exchange(x, part1_us, [](std::int64_t b, std::int64_t e) { compute(static_cast<double>(e - b) * 1e-6); });
    tl.mark(it, 2);
    x.complete();
    tl.mark(it, 3);
    compute(part2);
    tl.mark(it, 4);
  };
  const std::function<void(std::int64_t)> complete_and_compute =
      overlap ? std::function<void(std::int64_t)>(overlapped) : std::function<void(std::int64_t)>(plain);

  // The bytes past the stamps are the same every iteration: the checked (last) iteration receives
  // into 0xff bytes, or a fragment that did not arrive would leave an earlier one's equal bytes.
  const auto reset = [&] { std::fill(recv.begin(), recv.end(), static_cast<unsigned char>(0xff)); };
  r.stop_signal = loop.run_checked(total, reset, [&](std::int64_t it) {
    tl.mark(it, 0);
    for (const Slot& m : out)
      if (m.bytes >= stamp_bytes) {
        const std::int64_t stamp[2] = {rank, it};
        std::memcpy(send.data() + m.offset, stamp, stamp_bytes);
      }
    x.post(send.data(), recv.data());
    tl.mark(it, 1);
    complete_and_compute(it);
    for (const Slot& m : in)
      if (m.bytes >= stamp_bytes) {
        std::int64_t stamp[2];
        std::memcpy(stamp, recv.data() + m.offset, stamp_bytes);
        wrong += stamp[0] != m.peer || stamp[1] != it;
        ++checked;
      }
  });

  // Every byte past the stamps of the last iteration's messages.
  std::int64_t bytes_checked = 0, bytes_wrong = 0;
  for (const Slot& m : in)
    for (std::size_t i = stamp_bytes; i < m.bytes; ++i, ++bytes_checked)
      bytes_wrong += recv[m.offset + i] != pattern(i, m.peer, rank, m.k);
  r.elements_checked = bytes_checked;
  r.element_errors = bytes_wrong;
  r.messages_checked = checked;
  r.message_errors = wrong;
  return r;
}

}  // namespace desync
