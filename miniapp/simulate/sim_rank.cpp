#include "simulate/sim_rank.hpp"

#include "simulate/sim_wiring.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/stop_request.hpp"
#include "inject/delay_schedule.hpp"

namespace desync::sim {
namespace sg4 = simgrid::s4u;
namespace {
void* stamp(std::int64_t it) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(it + 1)); }

// A request to send names the pulled message (its index at the receiver) as its payload.
void* rts_payload(int id) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(id + 1)); }
int rts_id_of(void* payload) { return static_cast<int>(reinterpret_cast<std::intptr_t>(payload) - 1); }

// A communication an exchange's wait completes: its /messages index (-1: not logged) and, for a
// pulled receive, the message's index (-1: not pulled); a pulled receive stays unstarted until
// its request to send is taken.
struct Pending {
  sg4::CommPtr comm;
  std::int64_t log = -1;
  int rts_id = -1;
};

// A stop request (SIGTERM, SIGINT, SIGUSR1: core/stop_request.hpp) ends the simulation after an
// iteration every rank reaches: the furthest any rank has begun when the first rank notices. Ranks
// behind catch up to it (their partners' messages exist up to there), so nobody waits for a
// message that is never sent. Actors run one at a time, so plain variables suffice.
struct StopControl {
  std::int64_t furthest = 0;
  std::int64_t last = -1;  // the last iteration to run; -1: no stop requested
  int signal = 0;
};

// The paired run: decided once, by the first rank past the barrier after the first run, so that
// every rank takes the same decision although a signal may arrive between two ranks' checks.
struct PairControl {
  bool decided = false, run = false;
  StopControl stop;  // the paired run's own stop agreement
};

// One virtual rank. Eager sends complete at the sender without the receiver (their mailbox has
// the receiver as permanent receiver); their handles are released at the rank's next post, never
// detached (SimGrid 3.32 removes detached communications by a linear search). Rendezvous sends
// start when both sides posted, and the sender waits for them.
class RankActor {
 public:
  RankActor(int rank, const Config& cfg, const Platform& platform, const Program& prog, const SimHosts& hosts,
            const Wiring& wiring, SimOutcome& out, sg4::BarrierPtr barrier, double sync_cost,
            const std::function<void(std::int64_t, double)>* progress, StopControl& stop, PairControl& pair, MessageLog* log)
      : rank_(rank), cfg_(cfg), prog_(prog), work_(prog.ranks[static_cast<std::size_t>(rank)]), wiring_(wiring), out_(out),
        barrier_(std::move(barrier)), sync_cost_(sync_cost), progress_(progress), stop_(stop), pair_(pair), log_(log),
        memory_(hosts.memory[static_cast<std::size_t>(hosts.place[static_cast<std::size_t>(rank)].domain)]),
        memory_bound_(memory_bound_of(platform, hosts.place[static_cast<std::size_t>(rank)])),
        sum_bound_(platform.domain_bandwidth(1) * hosts.place[static_cast<std::size_t>(rank)].core_share),
        core_factor_(1.0 / (platform.threads_per_rank * hosts.place[static_cast<std::size_t>(rank)].core_share)),
        blocking_(cfg.comm.send == SendMode::blocking) {}

  void operator()() {
    // As the real loop's: [run] warmup + iterations, zero beyond (a module's own rows: pingpong).
    std::vector<double> delay = delay_schedule(cfg_, rank_);
    delay.resize(static_cast<std::size_t>(prog_.iterations), 0.0);
    multiples_ = delay_multiples(cfg_, rank_);
    run_loop(nullptr, out_.timeline[static_cast<std::size_t>(rank_)], delay, stop_, 0);
    if (!prog_.paired_steps.empty()) {
      // The real paired run starts after a barrier; here the ranks meet at no simulated cost.
      barrier_->wait();
      if (!pair_.decided) {
        pair_.decided = true;
        pair_.run = stop_.last < 0 && stop_signal() == 0;
      }
      if (pair_.run)
        run_loop(&prog_.paired_steps, out_.paired[static_cast<std::size_t>(rank_)], delay, pair_.stop, prog_.iterations);
    }
    out_.stamp_errors[static_cast<std::size_t>(rank_)] = errors_;
    out_.messages[static_cast<std::size_t>(rank_)] = checked_;
  }

 private:
  // One loop over the program's iterations into `tl`, each with its own steps (Program::steps_of),
  // or all with `paired` (the paired run); `stop` is the loop's stop agreement; rank 0 reports
  // progress as iteration `it + counted` (the paired run counts on).
  // `delay` by value: delays given in iterations are added from this loop's own warm-up, as the
  // real loop does (loop/experiment_loop.hpp).
  void run_loop(const std::vector<Step>* paired, Timeline& tl, std::vector<double> delay, StopControl& stop,
                std::int64_t counted) {
    // The paired run takes the first run's iteration time (t_iter_, as the real workloads do).
    std::int64_t scale_at = multiples_.empty() ? -1 : tl.warmup();
    if (scale_at >= 0 && t_iter_ > 0.0) {
      add_scaled_delays(delay, multiples_, t_iter_);
      scale_at = -1;
    }
    std::vector<std::vector<void*>> got(wiring_.in.size());
    for (std::size_t k = 0; k < got.size(); ++k) got[k].assign(wiring_.in[k].size(), nullptr);
    // Per exchange what its wait completes: the receives, then the rendezvous sends (nonblocking).
    std::vector<std::vector<Pending>> pending(wiring_.in.size());
    // Eager sends and requests to send: complete at the sender, released at a later post.
    std::vector<sg4::CommPtr> eager_sent;
    // /messages ([comm] record_messages): per exchange the log index of each eager send of its
    // latest post (the others' are in Pending::log); empty when not recording or when the post
    // did not fit the log (dropped whole).
    std::vector<std::vector<std::int64_t>> logged_eager(wiring_.in.size());
    std::int64_t released = -1;
    awaiting_.assign(static_cast<std::size_t>(wiring_.pulled), nullptr);
    early_.assign(static_cast<std::size_t>(wiring_.pulled), 0);
    slot_of_rts_.assign(static_cast<std::size_t>(wiring_.pulled), -1);
    if (wiring_.rts_box) post_rts();
    for (std::int64_t it = 0; it < prog_.iterations; ++it) {
      stop.furthest = std::max(stop.furthest, it);
      if (it == scale_at) {
        t_iter_ = tl.median_span(0, scale_at);  // NaN for a parked rank: it marks nothing
        if (t_iter_ > 0.0) add_scaled_delays(delay, multiples_, t_iter_);
      }
      for (const Step& s : paired ? *paired : prog_.steps_of(it)) {
        switch (s.op) {
          case Op::mark:
            if (!work_.parked) tl.set(it, s.arg, sg4::Engine::get_clock());
            break;
          case Op::memory:
          case Op::sum: {
            // A reduction's sum runs inside MPI on the calling thread: one thread's bandwidth.
            const double bytes = work_.amount[static_cast<std::size_t>(s.arg)];
            if (bytes > 0)
              sg4::this_actor::exec_init(bytes)->set_host(memory_)->set_bound(s.op == Op::sum ? sum_bound_ : memory_bound_)->wait();
            break;
          }
          case Op::core: sg4::this_actor::sleep_for(work_.amount[static_cast<std::size_t>(s.arg)] * core_factor_); break;
          case Op::busy: sg4::this_actor::sleep_for(work_.amount[static_cast<std::size_t>(s.arg)]); break;
          case Op::delay: {
            const double d = delay[static_cast<std::size_t>(it)];
            if (d <= 0.0 || work_.parked) break;
            if (prog_.delay_begin >= 0) tl.set(it, prog_.delay_begin, sg4::Engine::get_clock());
            sg4::this_actor::sleep_for(d);
            tl.set(it, prog_.delay_end, sg4::Engine::get_clock());
            break;
          }
          case Op::post: {
            const auto k = static_cast<std::size_t>(s.arg);
            // The previous iteration's eager sends, at this iteration's first post: long done by
            // then (waiting for them costs nothing simulated), whereas a later post of the same
            // iteration (PIPELINE) must not wait for sends still in flight.
            if (released != it && !eager_sent.empty()) {
              sg4::Comm::wait_all(eager_sent);
              eager_sent.clear();
            }
            released = it;
            pending[k].clear();
            logged_eager[k].clear();
            std::int64_t slot = log_ ? log_->reserve(static_cast<std::int64_t>(wiring_.in[k].size() + wiring_.out[k].size())) : -1;
            const double now = sg4::Engine::get_clock();
            // Tag: the exchange's index; one communicator (docs/output.md, "Simulated runs").
            const auto note = [&](int peer, std::int64_t bytes, bool send) -> std::int64_t {
              if (slot < 0) return -1;
              log_->describe(slot, peer, bytes, 0, static_cast<int>(k), send);
              log_->post_times()[slot] = now;
              return slot++;
            };
            // An eager message lands in its mailbox whether the receive is posted or not, so its
            // receive is only prepared here and done in one simcall at the wait; a rendezvous one
            // is started now (its transfer starts when both sides have posted), unless it is
            // pulled: then when its request to send is taken, now if it came before.
            for (std::size_t j = 0; j < wiring_.in[k].size(); ++j) {
              const Incoming& in = wiring_.in[k][j];
              sg4::CommPtr c = in.box->get_init()->set_dst_data(&got[k][j], sizeof(void*));
              if (in.rts_id >= 0) {
                auto& early = early_[static_cast<std::size_t>(in.rts_id)];
                if (early > 0) {
                  --early;
                  c->start();
                } else {
                  awaiting_[static_cast<std::size_t>(in.rts_id)] = c;
                }
              } else if (!in.eager) {
                c->start();
              }
              pending[k].push_back({std::move(c), note(in.peer, in.bytes, false), in.rts_id});
            }
            for (const Outgoing& o : wiring_.out[k]) {
              sg4::CommPtr c = o.box->put_async(stamp(it), o.bytes);
              if (o.rts_box) eager_sent.push_back(o.rts_box->put_async(rts_payload(o.rts_id), 0));
              const std::int64_t e = note(o.peer, static_cast<std::int64_t>(o.bytes), true);
              if (o.eager) {
                eager_sent.push_back(std::move(c));
                if (e >= 0) logged_eager[k].push_back(e);
              } else if (blocking_) {
                // A blocking send of a rendezvous message: returns when the receiver has it, taking
                // requests to send meanwhile (inside MPI).
                std::vector<Pending> one{{std::move(c), e, -1}};
                inside_mpi(one);
              } else {
                pending[k].push_back({std::move(c), e, -1});
              }
            }
            take_arrived_rts();
            break;
          }
          case Op::wait: {
            const auto k = static_cast<std::size_t>(s.arg);
            // Recording: an eager send completes locally, so the wait sees it at once.
            for (const std::int64_t e : logged_eager[k]) log_->done_times()[e] = sg4::Engine::get_clock();
            inside_mpi(pending[k]);
            pending[k].clear();
            for (void* g : got[k]) {
              ++checked_;
              if (g != stamp(it)) ++errors_;
            }
            break;
          }
          case Op::sync:
            if (!sync_due(prog_.sync_every, prog_.warmup, it)) break;  // [comm] sync_every
            [[fallthrough]];
          case Op::allreduce:
            barrier_->wait();
            if (sync_cost_ > 0) sg4::this_actor::sleep_for(sync_cost_);
            if (s.op == Op::sync && !work_.parked) tl.set(it, prog_.sync_end, sg4::Engine::get_clock());
            break;
        }
      }
      if (progress_) (*progress_)(it + counted, sg4::Engine::get_clock());
      if (stop.last < 0 && stop_signal() != 0) {
        stop.last = stop.furthest;
        stop.signal = stop_signal();
      }
      if (stop.last >= 0 && it >= stop.last) break;
    }
    if (!eager_sent.empty()) sg4::Comm::wait_all(eager_sent);
    if (rts_get_) {
      // Every request to send of the loop was taken (each pulled receive waited for its own);
      // the one still posted has nothing to match.
      rts_get_->cancel();
      rts_get_ = nullptr;
    }
  }

  // Inside an MPI call until every communication of `v` is done (a wait for all, a blocking send):
  // starts what may start (eager receives), takes requests to send as they arrive (a pulled
  // transfer starts then) and stamps each completion into /messages. The wait sees completions
  // one by one, as the real run's wait-some does, at no simulated cost.
  void inside_mpi(std::vector<Pending>& v) {
    if (std::any_of(v.begin(), v.end(), [](const Pending& p) { return p.log >= 0; })) {
      inside_mpi_each(v);
      return;
    }
    if (!rts_get_) {
      // Nothing to take meanwhile: each in turn; an eager receive not yet started is done in
      // one simcall here (SimGrid starts and completes it at once).
      for (const Pending& p : v) p.comm->wait();
      return;
    }
    // Not recording: the call ends when every communication is done, and takes each request to
    // send when it arrives; the order in which its own communications complete is not observed,
    // so it waits for them one at a time beside the request mailbox. One SimGrid wait over all of
    // them (inside_mpi_each) costs O(n) per completion, O(n^2) per exchange: hours for a rank
    // with hundreds of pulled messages (HHQ-large's scattered partitions).
    std::vector<std::size_t> ready;
    ready.reserve(v.size());
    std::size_t awaiting = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].comm->get_state() == sg4::Activity::State::INITED) {
        if (v[i].rts_id >= 0) {
          slot_of_rts_[static_cast<std::size_t>(v[i].rts_id)] = static_cast<long>(i);
          ++awaiting;
          continue;
        }
        v[i].comm->start();
      }
      ready.push_back(i);
    }
    const auto absorb = [&](int id) {  // a pulled receive of this call started: wait for it too
      if (id < 0 || slot_of_rts_[static_cast<std::size_t>(id)] < 0) return;
      ready.push_back(static_cast<std::size_t>(slot_of_rts_[static_cast<std::size_t>(id)]));
      slot_of_rts_[static_cast<std::size_t>(id)] = -1;
      --awaiting;
    };
    std::vector<sg4::CommPtr> two(2);
    for (std::size_t next = 0; next < ready.size() || awaiting > 0;) {
      if (next == ready.size()) {
        rts_get_->wait();
        absorb(take_rts());
        continue;
      }
      two[0] = v[ready[next]].comm;
      two[1] = rts_get_;
      if (sg4::Comm::wait_any(two) == 0)
        ++next;
      else
        absorb(take_rts());
    }
  }

  // inside_mpi when recording /messages: every completion is seen as it happens (a wait-some).
  void inside_mpi_each(std::vector<Pending>& v) {
    std::vector<char> done(v.size(), 0);
    std::vector<sg4::CommPtr> set;
    std::vector<std::size_t> which;
    for (;;) {
      set.clear();
      which.clear();
      bool awaiting = false;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (done[i]) continue;
        if (v[i].comm->get_state() == sg4::Activity::State::INITED) {
          if (v[i].rts_id >= 0) {
            awaiting = true;  // started when its request to send is taken
            continue;
          }
          v[i].comm->start();
        }
        set.push_back(v[i].comm);
        which.push_back(i);
      }
      if (set.empty() && !awaiting) return;
      if (rts_get_) set.push_back(rts_get_);
      if (set.empty()) throw std::logic_error("simulate: a pulled receive without a request-to-send mailbox");
      const auto i = static_cast<std::size_t>(sg4::Comm::wait_any(set));
      if (i == which.size()) {
        take_rts();
        continue;
      }
      done[which[i]] = 1;
      if (v[which[i]].log >= 0) log_->done_times()[v[which[i]].log] = sg4::Engine::get_clock();
    }
  }

  // The request to send just received: its pulled receive starts now if posted, else when it is.
  // Returns the message's index when it started one, else -1.
  int take_rts() {
    const int id = rts_id_of(rts_data_);
    const auto i = static_cast<std::size_t>(id);
    const bool posted = awaiting_[i] != nullptr;
    if (posted) {
      awaiting_[i]->start();
      awaiting_[i] = nullptr;
    } else {
      ++early_[i];
    }
    post_rts();
    return posted ? id : -1;
  }
  void post_rts() {
    rts_get_ = wiring_.rts_box->get_init()->set_dst_data(&rts_data_, sizeof(void*));
    rts_get_->start();
  }
  // Inside a nonblocking MPI call (the post): the requests to send that have arrived.
  void take_arrived_rts() {
    if (!rts_get_) return;
    while (rts_get_->test()) take_rts();
  }

  int rank_;
  const Config& cfg_;
  const Program& prog_;
  const RankWork& work_;
  const Wiring& wiring_;
  SimOutcome& out_;
  sg4::BarrierPtr barrier_;
  double sync_cost_;
  const std::function<void(std::int64_t, double)>* progress_;
  StopControl& stop_;
  PairControl& pair_;
  MessageLog* log_;  // [comm] record_messages: this rank's /messages, else null
  std::vector<double> multiples_;  // [[inject]] duration_iterations (inject/delay_schedule.hpp)
  double t_iter_ = 0.0;            // the iteration time the first run measured for them
  std::int64_t errors_ = 0, checked_ = 0;
  sg4::Host* memory_;
  double memory_bound_, sum_bound_, core_factor_;
  bool blocking_;  // [comm] send = "blocking": each rendezvous send completes in the post
  // Pulled receives: the posted request-to-send receive and its payload; per pulled message the
  // posted receive awaiting its request, and requests that came before their receive was posted.
  sg4::CommPtr rts_get_;
  void* rts_data_ = nullptr;
  std::vector<sg4::CommPtr> awaiting_;
  std::vector<int> early_;
  std::vector<long> slot_of_rts_;  // inside_mpi: the position of a pulled receive in the call's list, else -1
};

}  // namespace

double modelled_sync_cost(const Platform& platform, int ranks) {
  // ceil(log2 P) stages: none for one rank, which waits for nobody.
  return ranks > 1 ? platform.sync_latency * std::ceil(std::log2(ranks)) : 0.0;
}

SimOutcome simulate_ranks(const Config& cfg, const Platform& platform, const Program& prog, const SimHosts& hosts,
                          const std::function<void(std::int64_t, double)>& progress, std::size_t stack_bytes) {
  const int ranks = static_cast<int>(prog.ranks.size());
  SimOutcome out;
  out.timeline.reserve(prog.ranks.size());
  for (int r = 0; r < ranks; ++r) out.timeline.emplace_back(prog.event_names, prog.iterations, prog.warmup);
  out.stamp_errors.assign(prog.ranks.size(), 0);
  out.messages.assign(prog.ranks.size(), 0);
  if (!prog.paired_steps.empty())
    for (int r = 0; r < ranks; ++r) out.paired.emplace_back(prog.event_names, prog.iterations, prog.warmup);
  StopControl stop;
  PairControl pair;
  std::vector<std::vector<sg4::Mailbox*>> eager_boxes;
  const std::vector<Wiring> wiring = wire(cfg, platform, prog, hosts, eager_boxes);
  if (cfg.comm.record_messages) {
    // Sized to what the rank posts (both loops of a pair), at most record_messages_max as in a
    // real run, which then counts whole posts as dropped.
    const std::vector<std::int64_t> posts = exchange_posts(prog);
    for (const RankWork& w : prog.ranks) {
      const std::int64_t all = message_events(prog, w, posts, cfg.comm.fragment_bytes);
      out.message_logs.push_back(std::make_shared<MessageLog>(std::min(all, cfg.comm.record_messages_max)));
    }
  }
  // A barrier or allreduce: everyone leaves when the last arrives, after log2(P) stages.
  sg4::BarrierPtr barrier = sg4::Barrier::create(static_cast<unsigned>(ranks));
  const double sync_cost = modelled_sync_cost(platform, ranks);
  for (int r = 0; r < ranks; ++r) {
    sg4::ActorPtr a = sg4::Actor::init("rank" + std::to_string(r), hosts.rank[static_cast<std::size_t>(r)]);
    if (stack_bytes > 0) a->set_stacksize(stack_bytes);
    a->start(RankActor(r, cfg, platform, prog, hosts, wiring[static_cast<std::size_t>(r)], out,
                                                   barrier, sync_cost, r == 0 ? &progress : nullptr, stop, pair,
                                                   out.message_logs.empty() ? nullptr : out.message_logs[static_cast<std::size_t>(r)].get()));
    for (sg4::Mailbox* box : eager_boxes[static_cast<std::size_t>(r)]) box->set_receiver(a);
  }
  sg4::Engine::get_instance()->run();
  for (auto& boxes : eager_boxes)
    for (sg4::Mailbox* box : boxes) box->set_receiver(nullptr);
  out.simulated_time = sg4::Engine::get_clock();
  if (stop.last >= 0) {
    out.stop_signal = stop.signal;
    for (Timeline& tl : out.timeline) tl.truncate(std::min(tl.iterations(), stop.last + 1));
  }
  // A paired run stopped early: the first run's numbers stand, the file is marked stopped and P_D
  // is not reported (as in a real run); one not run at all leaves no paired timelines.
  if (!pair.run) out.paired.clear();
  if (pair.run && pair.stop.last >= 0) {
    out.stop_signal = pair.stop.signal;
    for (Timeline& tl : out.paired) tl.truncate(std::min(tl.iterations(), pair.stop.last + 1));
  }
  out.paired_complete = pair.run && pair.stop.last < 0;
  return out;
}

}  // namespace desync::sim
