// The back-to-back SpMV on the modelled cluster (docs/method.md, section 13): NON-SPLIT or
// SPLIT-WAIT with the real run's events. Per rank, the rows, nonzeros and halo come from desync's
// own partition and row scan (make_partition, scan_rank: what `desync plan` runs for P virtual
// ranks), the traffic from spmv_bytes, split between the local and the remote kernel.
#include "workloads/spmv/sim_spmv_program.hpp"

#include <fmt/format.h>

#include <string>

#include "comm/halo_plan.hpp"
#include "core/errors.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/rank_pattern.hpp"
#include "sim_model/sim_matrix_ranks.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/spmv/spmv_state.hpp"
#include "workload/halo_partners.hpp"

namespace desync::sim {
namespace {

enum Slot : int { pack, local, remote, slots };

// The halo vector entries are float64 in every case: a complex generator's matrix is run on its
// magnitudes (run_spmv), so its messages carry 8 B per entry, as halo_partners(plan, 8, 1) says.
constexpr int entry_bytes = 8;

// Platform bandwidths count bytes as STREAM does (no write-allocate), so the streamed amounts do
// too: spmv_bytes counts the write of y with its write-allocate (8 B per row), which the local
// kernel, the first writer of y, drops. The pack kernel (not in spmv_bytes: it is comm, not
// exec) reads a 4 B index and an 8 B x entry and writes 8 B to the send buffer per sent entry.
constexpr double write_allocate_per_row = 8.0;
constexpr double pack_bytes_per_entry = 4.0 + 8.0 + 8.0;

}  // namespace

Program spmv_program(const Config& cfg, const Platform& platform, int ranks) {
  (void)platform;  // memory-bound throughout: the platform's bandwidths act in the simulator
  const SpmvConfig& c = cfg.params.get<SpmvConfig>();
  const auto gen = make_generator(cfg.matrix);

  Program p;
  p.workload = "spmv";
  p.event_names = spmv_event_names(c.scheme);
  p.iterations = cfg.run.warmup + cfg.run.iterations;
  p.warmup = cfg.run.warmup;
  p.delay_end = event_of(p, "delay_end");  // the real timeline has no delay_begin
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "exec";
  p.composites = {{"exec", {"local", "remote"}}, {"comm", {"pack", "post", "wait"}}};
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  // The order of nonsplit_iteration / split_wait_iteration; the loop's delay, then its sync.
  p.steps = {mark("begin"), {Op::memory, pack}, mark("pack_end"), {Op::post, 0}, mark("post_end")};
  if (c.scheme == SpmvScheme::nonsplit)
    p.steps.insert(p.steps.end(), {{Op::wait, 0}, mark("wait_end"), {Op::memory, local}, mark("local_end")});
  else
    p.steps.insert(p.steps.end(), {{Op::memory, local}, mark("local_end"), {Op::wait, 0}, mark("wait_end")});
  p.steps.insert(p.steps.end(), {{Op::memory, remote}, mark("remote_end"), {Op::delay, 0}});
  if (cfg.comm.sync != SyncMode::none) p.steps.push_back({Op::sync, 0});
  // compare_barrier: the paired run with the other barrier setting, in the same simulation.
  if (c.compare_barrier) p.paired_steps = with_other_sync(p.steps, cfg.comm.sync);
  p.model = fmt::format(
      "spmv {}{}: memory-bound phases; per rank the rows, "
      "nonzeros and halo of the {} partition's row scan (desync plan); exec bytes = spmv_bytes (12 B per nonzero, 24 B "
      "per row, 16 B per row more with a remote part, 8 B per halo entry) split into local (local nonzeros, rows) and "
      "remote (remote nonzeros, second pass over y, halo); the streamed amounts leave out the {} B per row of y's "
      "write-allocate (STREAM counting, as the platform's bandwidths); pack {} B per sent entry; halo messages {} B "
      "per entry, one per partner{}",
      enum_name(spmv_scheme_names, c.scheme),
      c.kernel == SpmvKernel::kokkoskernels ? " (kernel kokkoskernels modelled as desync's: the same arrays and traffic)" : "",
      enum_name(partition_names, cfg.matrix.partition), write_allocate_per_row, pack_bytes_per_entry, entry_bytes,
      c.compare_barrier ? "; compare_barrier: the loop simulated a second time with the other [comm] sync after the "
                          "first, P_D from the two simulated walls with the modelled barrier cost"
                        : "");

  const MatrixRanks m = matrix_ranks(*gen, cfg.matrix.partition, ranks);

  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    RankWork& w = p.ranks[r];
    const RankPattern& s = m.scans[r];
    const HaloPlan& h = m.plans[r];
    const std::int64_t halo = halo_entries(h.recv);
    const bool has_remote = s.remote_nnz > 0;
    w.bytes_per_iteration = spmv_bytes(s.rows, s.nnz, halo, has_remote);
    w.flops_per_iteration = 2.0 * static_cast<double>(s.nnz);
    const double local_bytes = spmv_bytes(s.rows, s.nnz - s.remote_nnz, 0, false);
    w.amount.assign(slots, 0.0);
    w.amount[pack] = pack_bytes_per_entry * static_cast<double>(halo_entries(h.send));
    w.amount[local] = local_bytes - write_allocate_per_row * static_cast<double>(s.rows);
    w.amount[remote] = w.bytes_per_iteration - local_bytes;
    w.partners = halo_partners(h, entry_bytes, 1);
    w.exchange = {exchange_of(w.partners)};
    w.datasets = matrix_share_datasets(s.rows, s.nnz);
  }
  return p;
}

}  // namespace desync::sim
