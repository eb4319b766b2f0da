// The point-to-point micro-benchmarks on the modelled cluster (workloads/pingpong/pingpong.hpp):
// the real run's pairs (pingpong_role), sizes and repetitions, one timeline row per repetition.
// Every rank runs the same steps; its role is in its two exchanges of each size, A (posted at
// the start, completed at wait_end) and B (posted and completed before reply_end):
//   ping-pong  first: A = the message out and its echo back, B = nothing; second: A = the
//              message in, B = the echo out;
//   bandwidth  first: A = the window out, B = the zero-byte reply in; second: A = the window in,
//              B = the reply out;
//   no pair    nothing.
// A size starts with every rank meeting (the real run's barrier, outside the timed rows); the
// untimed warm-up repetitions are not simulated. /pingpong comes from the real run's own code
// (add_pingpong_results) applied to the first ranks' simulated timelines.
#include "workloads/pingpong/sim_pingpong_program.hpp"

#include <fmt/format.h>

#include <string>

#include "sim_model/sim_program.hpp"
#include "workloads/pingpong/pingpong.hpp"

namespace desync::sim {

Program pingpong_program(const Config& cfg, const Platform& platform, int ranks) {
  (void)platform;  // messages only: the platform's network acts in the simulator
  const PingpongConfig& c = cfg.params.get<PingpongConfig>();
  const bool bw = c.mode == PingpongMode::bandwidth;
  const int pairs = pingpong_pairs(c, ranks);
  const auto nsizes = static_cast<std::int64_t>(c.sizes.size());
  const std::int64_t reps = cfg.run.iterations;

  Program p;
  p.workload = "pingpong";
  p.event_names = pingpong_event_names();
  p.iterations = nsizes * reps;
  p.warmup = 0;
  p.delay_end = event_of(p, "delay_end");
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "wait";
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  // One step list per timeline row: size s uses exchanges 2s (A) and 2s + 1 (B).
  for (std::int64_t s = 0; s < nsizes; ++s)
    for (std::int64_t i = 0; i < reps; ++i) {
      std::vector<Step> st;
      if (i == 0) st.push_back({Op::allreduce, 0});  // the size's barrier, before its first row
      const int a = static_cast<int>(2 * s), b = a + 1;
      st.insert(st.end(), {mark("begin"), {Op::post, a}, mark("post_end"), {Op::wait, a}, mark("wait_end"), {Op::post, b},
                           {Op::wait, b}, mark("reply_end"), {Op::delay, 0}});
      if (cfg.comm.sync != SyncMode::none) st.push_back({Op::sync, 0});
      p.cycle.push_back(std::move(st));
    }
  p.model = fmt::format(
      "pingpong {}: {} pair(s) (rank i and i + P/2), {} size(s) x {} timed repetitions; {}; every size starts with all "
      "ranks meeting (the real run's barrier); the untimed warm-up repetitions are not simulated",
      enum_name(pingpong_mode_names, c.mode), pairs, nsizes, reps,
      bw ? fmt::format("per repetition a window of {} messages out, a zero-byte reply back", c.window)
         : "per repetition the message out and the same bytes back");
  p.datasets.push_back({"pingpong", "bytes", "B", {static_cast<std::uint64_t>(nsizes)},
                        std::vector<double>(c.sizes.begin(), c.sizes.end()), false, true});

  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    const PingpongRole me = pingpong_role(r, ranks, pairs);
    w.exchange.assign(static_cast<std::size_t>(2 * nsizes), Exchange{});
    if (me.peer < 0) continue;
    const std::int64_t window = bw ? c.window : 1;
    for (std::int64_t s = 0; s < nsizes; ++s) {
      const std::int64_t bytes = c.sizes[static_cast<std::size_t>(s)];
      Exchange& a = w.exchange[static_cast<std::size_t>(2 * s)];
      Exchange& b = w.exchange[static_cast<std::size_t>(2 * s + 1)];
      for (std::int64_t j = 0; j < window; ++j) (me.first ? a.send : a.recv).push_back({me.peer, bytes});
      // The echo: received in A (posted with the message out, as the real run does), sent in B.
      if (!bw && me.first) a.recv.push_back({me.peer, bytes, static_cast<int>(2 * s + 1)});
      if (!bw && !me.first) b.send.push_back({me.peer, bytes});
      if (bw) (me.first ? b.recv : b.send).push_back({me.peer, 0});  // the reply
    }
    w.partners = pingpong_partners(c, me);  // /comm as the real run writes it
  }
  // The first rank of pair q is rank q (pingpong_role).
  p.results = [c, pairs, reps, nsizes](const std::vector<const Timeline*>& tl, WorkloadResult& into) {
    const std::size_t cells = static_cast<std::size_t>(nsizes) * static_cast<std::size_t>(pairs);
    std::vector<double> med(cells, 0.0), mn(cells, 0.0);
    for (int q = 0; q < pairs; ++q) pingpong_pair_times(*tl[static_cast<std::size_t>(q)], reps, nsizes, pairs, q, med, mn);
    add_pingpong_results(c, pairs, reps, tl.front()->iterations(), std::move(med), std::move(mn), into);
  };
  return p;
}

}  // namespace desync::sim
