#include "workloads/pingpong/pingpong.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "comm/communicators.hpp"
#include "comm/exchange.hpp"
#include "core/mix64.hpp"
#include "core/mpi_util.hpp"
#include "core/page_buffer.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "loop/fault_injection.hpp"

namespace desync {
namespace {

// One timed repetition, on both ranks of a pair: the first rank posts and completes its send
// (ping-pong: and the receive of the reply), the second receives, then replies.
namespace pingpong_event {
enum : int { begin, post_end, wait_end, reply_end, delay_end, sync_end };
}  // namespace pingpong_event

constexpr int reply_tag = channel_tags - 1;  // the bandwidth mode's zero-byte reply; data tags are 0 .. window-1

using Role = PingpongRole;

// The byte a message of size index s from rank `from` holds at position k: a hash without a
// period (core/mix64.hpp), so fragments delivered in each other's place differ from what is
// expected there, and the two directions and the sizes differ.
inline unsigned char pattern(std::size_t k, int from, std::size_t s) {
  return static_cast<unsigned char>(mix64(k, static_cast<std::uint64_t>(from), s) >> 56);
}

// The exchanges of one size, built before its repetitions. first: `out` carries the data (and,
// in ping-pong, the receive of the echo); second: `in` receives, `out` replies.
struct SizeExchanges {
  std::unique_ptr<Exchange> out, in;
};

SizeExchanges build(const Communicators& comms, const CommConfig& opt, const PingpongConfig& c, const Role& r,
                    std::size_t bytes) {
  SizeExchanges x;
  if (r.peer < 0) return x;
  std::vector<Message> data;
  if (c.mode == PingpongMode::pingpong) {
    data.push_back({r.peer, 0, bytes, 0});
  } else {
    for (int j = 0; j < static_cast<int>(c.window); ++j)
      data.push_back({r.peer, r.first ? 0 : static_cast<std::size_t>(j) * bytes, bytes, j});  // one send buffer, read
  }                                                                                           // by all; distinct receives
  const std::vector<Message> echo{{r.peer, 0, bytes, 1}};
  const std::vector<Message> reply{{r.peer, 0, 0, reply_tag}};
  if (c.mode == PingpongMode::pingpong) {
    if (r.first) x.out = std::make_unique<Exchange>(comms, Channel::pairs, data, echo, opt);
    else {
      x.in = std::make_unique<Exchange>(comms, Channel::pairs, std::vector<Message>{}, data, opt);
      x.out = std::make_unique<Exchange>(comms, Channel::pairs, echo, std::vector<Message>{}, opt);
    }
  } else {
    if (r.first) {
      x.out = std::make_unique<Exchange>(comms, Channel::pairs, data, std::vector<Message>{}, opt);
      x.in = std::make_unique<Exchange>(comms, Channel::pairs, std::vector<Message>{}, reply, opt);
    } else {
      x.in = std::make_unique<Exchange>(comms, Channel::pairs, std::vector<Message>{}, data, opt);
      x.out = std::make_unique<Exchange>(comms, Channel::pairs, reply, std::vector<Message>{}, opt);
    }
  }
  return x;
}

// Round trip / window time of each pair per size (median and minimum over the timed repetitions,
// NaN where none ran), gathered on every rank.
struct PairTimes {
  std::vector<double> median, min;  // [sizes x pairs]
};

}  // namespace

PartnerList pingpong_partners(const PingpongConfig& c, const PingpongRole& me) {
  PartnerList p;
  if (me.peer < 0) return p;
  const bool bw = c.mode == PingpongMode::bandwidth;
  const std::int64_t largest = *std::max_element(c.sizes.begin(), c.sizes.end());
  const std::int64_t window = bw ? c.window : 1;
  const std::int64_t out = bw && !me.first ? 1 : window, in = bw && me.first ? 1 : window;
  for (std::int64_t k = 0; k < out; ++k) {
    p.send_rank.push_back(me.peer);
    p.send_bytes.push_back(bw && !me.first ? 0 : largest);
  }
  for (std::int64_t k = 0; k < in; ++k) {
    p.recv_rank.push_back(me.peer);
    p.recv_bytes.push_back(bw && me.first ? 0 : largest);
  }
  return p;
}

std::vector<std::string> pingpong_event_names() {
  return {"begin", "post_end", "wait_end", "reply_end", "delay_end", "sync_end"};
}

void pingpong_pair_times(const Timeline& tl, std::int64_t reps, std::int64_t nsizes, int pairs, int pair,
                         std::vector<double>& med, std::vector<double>& mn) {
  const std::int64_t done = tl.iterations();
  std::vector<double> t;
  for (std::int64_t s = 0; s < nsizes; ++s) {
    t.clear();
    for (std::int64_t i = 0; i < reps && s * reps + i < done; ++i)
      t.push_back(tl.at(s * reps + i, pingpong_event::reply_end) - tl.at(s * reps + i, pingpong_event::begin));
    if (t.empty()) continue;
    std::sort(t.begin(), t.end());
    const std::size_t cell = static_cast<std::size_t>(s) * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(pair);
    med[cell] = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    mn[cell] = t.front();
  }
}

void add_pingpong_results(const PingpongConfig& c, int pairs, std::int64_t reps, std::int64_t done, std::vector<double> med,
                          std::vector<double> mn, WorkloadResult& r) {
  const bool bw = c.mode == PingpongMode::bandwidth;
  const auto nsizes = static_cast<std::int64_t>(c.sizes.size());
  const std::vector<double> bytes(c.sizes.begin(), c.sizes.end());
  const std::size_t cells = static_cast<std::size_t>(nsizes) * static_cast<std::size_t>(pairs);
  std::vector<double> bandwidth(cells), aggregate(static_cast<std::size_t>(nsizes), 0.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::int64_t s = 0; s < nsizes; ++s) {
    const bool ran = s * reps < done;
    for (int p = 0; p < pairs; ++p) {
      const std::size_t cell = static_cast<std::size_t>(s) * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(p);
      if (!ran) med[cell] = mn[cell] = nan;
      // Ping-pong: one way is half the round trip; bandwidth: the window's bytes in its time.
      const double moved = bw ? static_cast<double>(c.window) * bytes[static_cast<std::size_t>(s)] : bytes[static_cast<std::size_t>(s)];
      bandwidth[cell] = moved / (bw ? med[cell] : 0.5 * med[cell]);
      aggregate[static_cast<std::size_t>(s)] += bandwidth[cell];
    }
  }
  const std::uint64_t ns = static_cast<std::uint64_t>(nsizes), np = static_cast<std::uint64_t>(pairs);
  const std::string time_name = bw ? "window_time" : "round_trip";
  r.datasets.push_back({"pingpong", time_name + "_median", "s", {ns, np}, med, false, false});
  r.datasets.push_back({"pingpong", time_name + "_min", "s", {ns, np}, mn, false, false});
  r.datasets.push_back({"pingpong", "bandwidth", "B/s", {ns, np}, bandwidth, false, false});
  if (bw) r.datasets.push_back({"pingpong", "aggregate_bandwidth", "B/s", {ns}, aggregate, false, false});

  // bandwidth mode: the pairs run concurrently, so their sum; ping-pong: the best single pair.
  double peak = 0.0;
  for (double b : bw ? aggregate : bandwidth)
    if (std::isfinite(b)) peak = std::max(peak, b);
  r.metrics.push_back({bw ? "peak_aggregate_bandwidth" : "peak_pingpong_bandwidth", peak, "B/s"});
  r.metrics.push_back(count_value("pairs", pairs));

  std::string& rep = r.report;
  rep = bw ? fmt::format("bandwidth: {} pair(s), window {}, {} repetitions per size (median):\n", pairs, c.window, reps)
           : fmt::format("ping-pong: {} pair(s), {} repetitions per size (pair 0, median round trip):\n", pairs, reps);
  rep += bw ? fmt::format("  {:>10} {:>14} {:>18}\n", "bytes", "window [us]", "aggregate [MB/s]")
            : fmt::format("  {:>10} {:>14} {:>18}\n", "bytes", "round trip [us]", "bandwidth [MB/s]");
  for (std::int64_t s = 0; s < nsizes; ++s) {
    const std::size_t cell = static_cast<std::size_t>(s) * np;  // pair 0's time
    rep += fmt::format("  {:>10} {:>14.2f} {:>18.1f}\n", static_cast<long long>(bytes[static_cast<std::size_t>(s)]),
                       med[cell] * 1e6, (bw ? aggregate[static_cast<std::size_t>(s)] : bandwidth[cell]) * 1e-6);
  }
}

PingpongRole pingpong_role(int rank, int size, int pairs) {
  const int half = size / 2;
  if (rank < pairs) return {rank + half, true, rank};
  if (rank >= half && rank - half < pairs) return {rank - half, false, rank - half};
  return {};
}

int pingpong_pairs(const PingpongConfig& c, int size) {
  if (c.pairs > 0) return static_cast<int>(c.pairs);
  return c.mode == PingpongMode::pingpong ? 1 : size / 2;
}

WorkloadResult run_pingpong(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::pingpong");
  const PingpongConfig& c = cfg.params.get<PingpongConfig>();
  const int rank = comm_rank(comm), size = comm_size(comm);
  const int pairs = pingpong_pairs(c, size);
  const Role me = pingpong_role(rank, size, pairs);
  const bool bw = c.mode == PingpongMode::bandwidth;
  const std::int64_t reps = cfg.run.iterations, nsizes = static_cast<std::int64_t>(c.sizes.size());
  const std::size_t largest = static_cast<std::size_t>(*std::max_element(c.sizes.begin(), c.sizes.end()));
  const std::size_t window = bw ? static_cast<std::size_t>(c.window) : 1;

  const Communicators comms(comm, cfg.comm);
  // The bandwidth mode's first rank receives only the zero-byte reply (reply_byte): no window.
  PageBuffer send(std::max<std::size_t>(largest, 1)), recv(bw && me.first ? 1 : std::max<std::size_t>(largest * window, 1));
  unsigned char reply_byte = 0;  // the zero-byte reply's buffer
  WorkloadResult r(Timeline(pingpong_event_names(), nsizes * reps, 0));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();
  const std::vector<double> bytes(c.sizes.begin(), c.sizes.end());
  r.datasets.push_back({"pingpong", "bytes", "B", {static_cast<std::uint64_t>(nsizes)}, bytes, false, true});
  r.work_phase = "wait";
  r.partners = pingpong_partners(c, me);
  ExperimentLoop loop(cfg, comm, r, cfg.comm.sync);

  // One repetition per role, chosen once below (no role or mode is tested per repetition);
  // mark(t, it, e) stamps event e, or nothing for the untimed warm-up repetitions (t null).
  namespace ev = pingpong_event;
  const auto mark = [](Timeline* t, std::int64_t it, int e) {
    if (t) t->mark(it, e);
  };
  const auto idle = [&](SizeExchanges&, Timeline* t, std::int64_t it) {
    mark(t, it, ev::begin), mark(t, it, ev::post_end), mark(t, it, ev::wait_end), mark(t, it, ev::reply_end);
  };
  const auto first_pingpong = [&](SizeExchanges& x, Timeline* t, std::int64_t it) {
    mark(t, it, ev::begin);
    x.out->post(send.data(), recv.data());  // the echo's receive, then the message
    mark(t, it, ev::post_end);
    x.out->complete();
    mark(t, it, ev::wait_end);
    mark(t, it, ev::reply_end);
  };
  const auto first_bandwidth = [&](SizeExchanges& x, Timeline* t, std::int64_t it) {
    mark(t, it, ev::begin);
    x.out->post(send.data(), nullptr);  // the window
    mark(t, it, ev::post_end);
    x.out->complete();
    mark(t, it, ev::wait_end);
    x.in->post(nullptr, &reply_byte);
    x.in->complete();
    mark(t, it, ev::reply_end);
  };
  const auto second = [&](SizeExchanges& x, Timeline* t, std::int64_t it) {
    mark(t, it, ev::begin);
    x.in->post(nullptr, recv.data());
    mark(t, it, ev::post_end);
    x.in->complete();
    mark(t, it, ev::wait_end);
    x.out->post(bw ? &reply_byte : recv.data(), nullptr);  // ping-pong: the echo sends back what arrived
    x.out->complete();
    mark(t, it, ev::reply_end);
  };
  // One cell per message size: set-up and the untimed warm-up, then the timed repetitions (each
  // one iteration of the loop), then the check of what arrived (also after a stop inside the
  // size: every repetition delivers the whole pattern). Every repetition delivers the same bytes,
  // so the receive buffers start the last one poisoned again: what the check reads arrived then.
  // The role's repetition is chosen once.
  std::int64_t checked = 0, wrong = 0;
  SizeExchanges x;
  std::size_t size_bytes = 0;
  int origin = -1;
  const bool receives = me.peer >= 0 && (!bw || !me.first);
  // What must arrive, once per size (the hash per byte costs more than the copies of it: the
  // bandwidth deck's window of 64 times 4 MiB is 256 MiB per pass), and receive buffers that
  // differ from it in every byte. What arrives: the first rank of a ping-pong pair gets its own
  // data back (the echo); every other receiver gets its partner's data, in every slot of a window.
  PageBuffer expected(receives ? std::max<std::size_t>(largest, 1) : 0);
  const auto poison = [&] {
    if (!receives) return;
    for (std::size_t j = 0; j < window; ++j)
      for (std::size_t k = 0; k < size_bytes; ++k) recv[j * size_bytes + k] = static_cast<unsigned char>(expected[k] ^ 0x5au);
  };
  const auto run_sizes_with = [&](const auto& one, const auto& last) {
    return loop.run_cells_checked(
        nsizes, reps,
        [&](std::int64_t s) {
          size_bytes = static_cast<std::size_t>(c.sizes[static_cast<std::size_t>(s)]);
          x = build(comms, cfg.comm, c, me, size_bytes);
          origin = !bw && me.first ? rank : me.peer;
          for (std::size_t k = 0; k < size_bytes; ++k) send[k] = pattern(k, rank, static_cast<std::size_t>(s));
          if (receives)
            for (std::size_t k = 0; k < size_bytes; ++k) expected[k] = pattern(k, origin, static_cast<std::size_t>(s));
          poison();
          MPI_Barrier(comm);  // sizes start together; outside the timed repetitions
          for (std::int64_t w = 0; w < cfg.run.warmup; ++w) one(x, nullptr, 0);
        },
        [&](std::int64_t) {
          poison();
          // Only receivers poison (a bandwidth mode's first rank does not): the partners start the
          // last repetition together again, as every size's first, or one rank's timed repetition
          // would include its partner's poisoning.
          MPI_Barrier(comm);
        },
        [&](std::int64_t it) { one(x, &tl, it); }, [&](std::int64_t it) { last(x, &tl, it); },
        [&](std::int64_t, bool) {
          if (!receives) return;
          for (std::size_t j = 0; j < window; ++j)
            for (std::size_t k = 0; k < size_bytes; ++k) wrong += recv[j * size_bytes + k] != expected[k];
          checked += static_cast<std::int64_t>(size_bytes * window);
        });
  };
  // The tests' fault injection (loop/fault_injection.hpp): each size's last repetition delivers nothing.
  const auto run_sizes = [&](const auto& one) { return test_drop_last_delivery() ? run_sizes_with(one, idle) : run_sizes_with(one, one); };
  if (me.peer < 0) r.stop_signal = run_sizes(idle);
  else if (!me.first) r.stop_signal = run_sizes(second);
  else if (bw) r.stop_signal = run_sizes(first_bandwidth);
  else r.stop_signal = run_sizes(first_pingpong);

  // Per pair and size: the first rank's times (reply_end - begin), median and minimum, on every rank.
  const std::size_t cells = static_cast<std::size_t>(nsizes) * static_cast<std::size_t>(pairs);
  std::vector<double> med(cells, 0.0), mn(cells, 0.0);
  if (me.first) pingpong_pair_times(tl, reps, nsizes, pairs, me.pair, med, mn);
  MPI_Allreduce(MPI_IN_PLACE, med.data(), static_cast<int>(cells), MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, mn.data(), static_cast<int>(cells), MPI_DOUBLE, MPI_SUM, comm);
  add_pingpong_results(c, pairs, reps, tl.iterations(), std::move(med), std::move(mn), r);

  r.elements_checked = checked;
  r.element_errors = wrong;
  return r;
}

}  // namespace desync
