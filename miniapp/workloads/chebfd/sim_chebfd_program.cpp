// The ChebFD filter on the modelled cluster (docs/method.md, section 15): NON-SPLIT, SPLIT-WAIT
// and PIPELINE with the real run's events, one iteration per degree step. Per rank, the rows,
// nonzeros and halo of the matrix workloads' scan (matrix_ranks, sim_model/sim_matrix_ranks.hpp), the
// traffic from chebfd::bytes_per_step, the flops from chebfd::flops_per_step.
#include "workloads/chebfd/sim_chebfd_program.hpp"

#include <fmt/format.h>

#include <string>

#include "workloads/chebfd/chebfd.hpp"
#include "workloads/chebfd/chebfd_filter.hpp"
#include "matrix/make_generator.hpp"
#include "sim_model/sim_matrix_ranks.hpp"
#include "sim_model/sim_program.hpp"
#include "workload/halo_partners.hpp"

namespace desync::sim {
namespace {

enum Slot : int { pack, first, second, slots };  // first: fused or local kernel; second: remote

}  // namespace

Program chebfd_program(const Config& cfg, const Platform& platform, int ranks) {
  (void)platform;  // memory-bound throughout: the platform's bandwidths act in the simulator
  const ChebfdConfig& c = cfg.params.get<ChebfdConfig>();
  const auto gen = make_generator(cfg.matrix);
  const bool complex = gen->is_complex();
  const double sd = complex ? 16.0 : 8.0;  // bytes of one scalar (T = Complex for TOPI)
  const int nb = static_cast<int>(c.nb);
  const auto blocks = static_cast<int>(c.ns / c.nb);
  const bool split = c.scheme == ChebfdScheme::splitwait, pipeline = c.scheme == ChebfdScheme::pipeline;

  Program p;
  p.workload = "chebfd";
  p.event_names = chebfd::event_names(c.scheme);
  p.iterations = cfg.run.warmup + cfg.run.iterations;  // the degree steps, resolved at load
  p.warmup = cfg.run.warmup;
  p.delay_end = event_of(p, "delay_end");  // the real timeline has no delay_begin
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "exec";
  p.composites = {{"exec", split ? std::vector<std::string>{"local", "remote"} : std::vector<std::string>{"fused"}},
                  {"comm", {"pack", "post", "wait"}}};
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  // Filter::product's order (NON-SPLIT, SPLIT-WAIT: one block step) or run_pipeline's (all
  // blocks: block 0's exchange, then each block's kernel while the next block's halo travels).
  p.steps = {mark("begin"), {Op::memory, pack}, mark("pack_end"), {Op::post, 0}, mark("post_end")};
  if (split) {
    p.steps.insert(p.steps.end(), {{Op::memory, first}, mark("local_end"), {Op::wait, 0}, mark("wait_end"),
                                   {Op::memory, second}, mark("remote_end")});
  } else {
    p.steps.insert(p.steps.end(), {{Op::wait, 0}, mark("wait_end")});
    for (int b = 0; b < (pipeline ? blocks : 1); ++b) {
      const bool next = pipeline && b + 1 < blocks;
      if (next) p.steps.insert(p.steps.end(), {{Op::memory, pack}, {Op::post, b + 1}});
      p.steps.push_back({Op::memory, first});
      if (next) p.steps.push_back({Op::wait, b + 1});
    }
    p.steps.push_back(mark("fused_end"));
  }
  p.steps.push_back({Op::delay, 0});
  if (cfg.comm.sync != SyncMode::none) p.steps.push_back({Op::sync, 0});
  // compare_barrier: the paired run with the other barrier setting, in the same simulation.
  if (c.compare_barrier) p.paired_steps = with_other_sync(p.steps, cfg.comm.sync);
  p.model = fmt::format(
      "chebfd {} ({} x {} block(s) of nb = {}, S_d = {} B): memory-bound phases; per rank the rows, nonzeros and halo of "
      "the {} partition's row scan (desync plan); {}; pack (4 + 2 nb S_d) B per sent row; halo messages nb S_d B per "
      "entry, one per partner{}; not simulated: each block's start and init product (off the timeline: the next "
      "block's first step follows the last one at once) and the setup (bounds){}",
      enum_name(chebfd_scheme_names, c.scheme), blocks, c.np - 1, nb, sd, enum_name(partition_names, cfg.matrix.partition),
      split ? "local kernel nnz_local (S_d + 4) + 3 nb S_d rows (U read, W read and written), remote kernel "
              "bytes_per_step of the remote nonzeros (U and W again, X: the second pass the byte model leaves out)"
            : "fused kernel bytes_per_step = nnz (S_d + 4) + 5 nb S_d rows per block step",
      pipeline ? ", one exchange per block in every step" : "",
      c.compare_barrier ? "; compare_barrier: the filter simulated a second time with the other [comm] sync after the "
                          "first (P_D with the modelled barrier cost)"
                        : "");

  const MatrixRanks m = matrix_ranks(*gen, cfg.matrix.partition, ranks);
  const double per_it = pipeline ? static_cast<double>(blocks) : 1.0;
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    RankWork& w = p.ranks[r];
    const RankPattern& s = m.scans[r];
    const auto rows = static_cast<double>(s.rows), nnz = static_cast<double>(s.nnz);
    w.bytes_per_iteration = per_it * chebfd::bytes_per_step(complex, rows, nnz, nb);
    w.flops_per_iteration = per_it * chebfd::flops_per_step(complex, rows, nnz, nb);
    w.amount.assign(slots, 0.0);
    w.amount[pack] = (4.0 + 2.0 * nb * sd) * static_cast<double>(halo_entries(m.plans[r].send));
    if (split) {
      const double remote_nnz = static_cast<double>(s.remote_nnz);
      w.amount[first] = chebfd::bytes_per_step(complex, rows, nnz - remote_nnz, nb) - 2.0 * nb * sd * rows;  // no X
      w.amount[second] = chebfd::bytes_per_step(complex, rows, remote_nnz, nb);
    } else {
      w.amount[first] = chebfd::bytes_per_step(complex, rows, nnz, nb);
    }
    w.partners = halo_partners(m.plans[r], static_cast<int>(sd), nb);
    w.exchange.assign(pipeline ? static_cast<std::size_t>(blocks) : 1u, exchange_of(w.partners));
    w.datasets = matrix_share_datasets(s.rows, s.nnz);
  }
  return p;
}

}  // namespace desync::sim
