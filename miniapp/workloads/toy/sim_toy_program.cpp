// The communication-imbalance toys on the modelled cluster (workloads/toy/toy.hpp, papers.md
// D.3): the real run's partners (r+1 .. r+degree out, r-1 .. r-degree in), its message sizes
// (toy_message_bytes, drawn from [run] seed), its send mode ([comm] send, "blocking" by default:
// each rendezvous send completes in the post) and its compute phases as fixed wall time (the toys
// busy-loop for `compute` seconds on every thread, however the cores are shared). Where a
// rendezvous message waits is the simulator's progress model (simulate/sim_rank.cpp): under
// progress = "wait" a rank takes requests to send only inside MPI, so a blocking send to a rank
// in compute part 1 waits for that rank's wait, the study's known answer.
#include "workloads/toy/sim_toy_program.hpp"

#include <fmt/format.h>

#include <string>

#include "sim_model/sim_program.hpp"
#include "workloads/toy/toy.hpp"

namespace desync::sim {

Program toy_program(const Config& cfg, const Platform& platform, int ranks) {
  (void)platform;  // fixed-duration compute and messages: the platform's network acts in the simulator
  const ToyConfig& c = cfg.params.get<ToyConfig>();
  const int g = ranks > 1 ? toy_degree(c, ranks) : 0;
  const auto per = static_cast<int>(c.messages);
  enum Slot : int { part1, part2, slots };

  Program p;
  p.workload = "toy";
  p.event_names = toy_event_names(c.overlap);
  p.iterations = cfg.run.warmup + cfg.run.iterations;
  p.warmup = cfg.run.warmup;
  p.delay_end = event_of(p, "delay_end");  // the real timeline has no delay_begin
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "exec";
  p.composites = {{"exec", c.overlap ? std::vector<std::string>{"part1", "part2"} : std::vector<std::string>{"compute"}},
                  {"comm", {"post", "wait"}}};
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  p.steps = {mark("begin"), {Op::post, 0}, mark("post_end")};
  if (c.overlap) {
    p.steps.insert(p.steps.end(), {{Op::busy, part1}, mark("part1_end"), {Op::wait, 0}, mark("wait_end"), {Op::busy, part2},
                                   mark("part2_end")});
  } else {
    p.steps.insert(p.steps.end(), {{Op::wait, 0}, mark("wait_end"), {Op::busy, part2}, mark("compute_end")});
  }
  p.steps.push_back({Op::delay, 0});
  if (cfg.comm.sync != SyncMode::none) p.steps.push_back({Op::sync, 0});
  const double first = c.overlap ? c.compute * c.part1 : 0.0;
  p.model = fmt::format(
      "toy ({}): per rank {} target(s) x {} message(s) of {} .. {} B ([run] seed), {} sends; compute {} s of wall time{}",
      c.overlap ? "overlap" : "no overlap", g, per, c.min_bytes, c.max_bytes, enum_name(send_mode_names, cfg.comm.send),
      c.compute, c.overlap ? fmt::format(", {} s before the wait", first) : std::string());

  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    w.amount.assign(slots, 0.0);
    w.amount[part1] = first;
    w.amount[part2] = c.compute - first;
    Exchange x;
    // As run_toy posts them: per target j, its messages k in order (tag k); the one /comm slot
    // per message of the real run.
    for (int j = 1; j <= g; ++j) {
      const int to = (r + j) % ranks, from = (r - j % ranks + ranks) % ranks;
      for (int k = 0; k < per; ++k) {
        const std::int64_t sb = toy_message_bytes(c, cfg.run.seed, r, to, k);
        const std::int64_t rb = toy_message_bytes(c, cfg.run.seed, from, r, k);
        x.send.push_back({to, sb});
        x.recv.push_back({from, rb});
        w.partners.send_rank.push_back(to);
        w.partners.recv_rank.push_back(from);
        w.partners.send_bytes.push_back(sb);
        w.partners.recv_bytes.push_back(rb);
      }
    }
    w.exchange = {std::move(x)};
  }
  return p;
}

}  // namespace desync::sim
