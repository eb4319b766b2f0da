#include "sim_model/sim_program.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "record/iteration_events.hpp"

namespace desync::sim {
namespace {

// Deck values outside [comm] that no program models are refused rather than ignored.
void refuse_unmodelled_tables(const Config& cfg) {
  if (cfg.run.stream_table) refuse(cfg, "run", "stream_table", "true", "it measures the machine it runs on");
  if (cfg.has_matrix && cfg.matrix.format == MatrixFormat::sell)
    refuse(cfg, "matrix", "format", "\"sell\"", "the kernels' traffic model is CRS's");
  // [comm] send and progress: the values the ranks' exchanges model (simulate/sim_rank.cpp).
  if (cfg.comm.send == SendMode::parallel)
    refuse(cfg, "comm", "send", "\"parallel\"", "sends from several threads at once; \"nonblocking\" and \"blocking\" are modelled");
  if (cfg.comm.progress == ProgressMode::test)
    refuse(cfg, "comm", "progress", "\"test\"",
           "MPI_Test calls inside the overlapped work; \"wait\" (rendezvous transfers start inside MPI calls) and "
           "\"thread\" (as soon as both sides posted) are modelled");
}

// [comm] eager_limit declares the real MPI's limit for the record; the simulator uses the
// platform's: said when they differ, not silently replaced.
void note_eager_limit(const Config& cfg, const Platform& platform) {
  const std::int64_t declared = cfg.comm.eager_limit;
  if (declared > 0 && declared != platform.eager_limit_intra && declared != platform.eager_limit_inter)
    log::warn("{}: [comm] eager_limit = {} is for the record of real runs; the simulation uses the platform's "
              "eager_limit_intra = {} and eager_limit_inter = {} (--pset network.eager_limit_intra=...)\n",
              locate(cfg, "comm.eager_limit"), declared, platform.eager_limit_intra, platform.eager_limit_inter);
}

}  // namespace

void note_communicators(const Config& cfg, const Program& prog) {
  // N_DUP spreads point-to-point messages over duplicated communicators; every simulated message
  // has its own mailbox already, so the value changes nothing there: said, not silently dropped.
  // The collective workloads' programs split their collectives by it (uses_communicators).
  if (cfg.comm.communicators > 1 && !prog.uses_communicators)
    log::warn("{}: [comm] communicators = {}: no effect in a simulation of {} (every message has its own channel); the "
              "results are those of communicators = 1\n",
              locate(cfg, "comm.communicators"), cfg.comm.communicators, prog.workload);
}

void refuse(const Config& cfg, const std::string& table, const std::string& key, const std::string& value,
            const std::string& why) {
  throw DeckError(fmt::format("{}: error: [{}] {} = {}: not modelled by desync simulate ({}); remove it or use desync run",
                              locate(cfg, table + "." + key), table, key, value, why));
}

std::vector<Step> compute_then_exchange(const Config& cfg, const std::vector<Step>& compute) {
  std::vector<Step> s{{Op::mark, ev::compute_begin}};
  s.insert(s.end(), compute.begin(), compute.end());
  s.push_back({Op::mark, ev::compute_end});
  s.push_back({Op::delay, 0});
  s.push_back({Op::post, 0});
  s.push_back({Op::mark, ev::post_end});
  s.push_back({Op::wait, 0});
  s.push_back({Op::mark, ev::wait_end});
  if (cfg.comm.sync != SyncMode::none) s.push_back({Op::sync, 0});
  return s;
}

std::vector<Step> with_other_sync(const std::vector<Step>& steps, SyncMode sync) {
  std::vector<Step> v;
  for (const Step& s : steps)
    if (s.op != Op::sync) v.push_back(s);
  if (sync == SyncMode::none) v.push_back({Op::sync, 0});
  return v;
}

std::vector<std::int64_t> exchange_posts(const Program& p) {
  std::vector<std::int64_t> posts;
  const std::vector<std::vector<Step>> one{p.steps};
  const std::vector<std::vector<Step>>& cycle = p.cycle.empty() ? one : p.cycle;
  const auto n = static_cast<std::int64_t>(cycle.size());
  for (std::int64_t c = 0; c < n; ++c) {
    const std::int64_t times = p.iterations / n + (c < p.iterations % n ? 1 : 0);  // iterations at this position
    for (const Step& s : cycle[static_cast<std::size_t>(c)]) {
      if (s.op != Op::post) continue;
      if (posts.size() <= static_cast<std::size_t>(s.arg)) posts.resize(static_cast<std::size_t>(s.arg) + 1, 0);
      posts[static_cast<std::size_t>(s.arg)] += times;
    }
  }
  return posts;
}

std::int64_t message_events(const Program& p, const RankWork& w, const std::vector<std::int64_t>& posts,
                            std::int64_t fragment_bytes) {
  std::int64_t n = 0;
  for (std::size_t k = 0; k < posts.size() && k < w.exchange.size(); ++k)
    for (const auto* list : {&w.exchange[k].recv, &w.exchange[k].send})
      for (const Message& m : *list) n += posts[k] * message_pieces(m.bytes, fragment_bytes);
  return n * (p.paired_steps.empty() ? 1 : 2);
}

int event_of(const Program& p, const std::string& name) {
  for (std::size_t i = 0; i < p.event_names.size(); ++i)
    if (p.event_names[i] == name) return static_cast<int>(i);
  throw std::logic_error("simulate: the " + p.workload + " program has no event " + name);
}

Exchange exchange_of(const PartnerList& partners) {
  Exchange x;
  for (std::size_t k = 0; k < partners.recv_rank.size(); ++k) x.recv.push_back({partners.recv_rank[k], partners.recv_bytes[k]});
  for (std::size_t k = 0; k < partners.send_rank.size(); ++k) x.send.push_back({partners.send_rank[k], partners.send_bytes[k]});
  return x;
}

bool modelled_comm_key(const std::string& key) {
  // sync: a barrier or allreduce step, sync_every: after every N-th iteration only (sim_rank.cpp); fragment_bytes: messages cut into pieces as in the real
  // run (simulate/sim_rank.cpp); send, progress: blocking sends and where rendezvous transfers
  // progress (refuse_unmodelled_tables refuses the other values); eager_limit: noted
  // (note_eager_limit); communicators: N_DUP parts where a program splits its collectives by it,
  // else noted (note_communicators); record_messages(_max): /messages from the simulated posts and
  // completions.
  return key == "sync" || key == "sync_every" || key == "fragment_bytes" || key == "send" || key == "progress" || key == "communicators" ||
         key == "eager_limit" || key == "record_messages" || key == "record_messages_max";
}

std::string unmodelled_comm_reason(const std::string& key) {
  if (key == "test_interval") return "progress = \"test\" is not modelled";
  if (key == "gpu_aware_mpi") return "the simulated ranks are host processes; staging copies are not modelled";
  return "the simulator has no model of it";
}

void refuse_unmodelled(const Config& cfg, const Platform& platform) {
  refuse_unmodelled_tables(cfg);
  note_eager_limit(cfg, platform);
}

}  // namespace desync::sim
