// The conjugate gradient on the modelled cluster (docs/method.md, section 17): run_cg's iteration
// with its events, the SpMV plain (exchange, then all rows) or overlapped (rows without halo
// values while the halo travels, then the others), the dot product, the fused update and the
// direction as memory-bound phases of cg_kernels.hpp's traffic, and its two MPI_Allreduce as the
// simulator's collective (every rank leaves when the last arrives, plus the modelled cost). Per
// rank the rows, nonzeros and halo of the matrix workloads' scan (matrix_ranks).
#include "workloads/cg/sim_cg_program.hpp"

#include <fmt/format.h>

#include <string>

#include "matrix/make_generator.hpp"
#include "sim_model/sim_matrix_ranks.hpp"
#include "sim_model/sim_program.hpp"
#include "workload/halo_partners.hpp"
#include "workloads/cg/cg.hpp"
#include "workloads/spmv/spmv.hpp"

namespace desync::sim {
namespace {

enum Slot : int { pack, interior, spmv, dot, update, direction, slots };

// Streamed bytes, STREAM counting as the platform's bandwidths: the product as the SpMV's model
// (spmv_bytes) less the write-allocate of q (8 B per row); the vector kernels as
// cg_kernels.hpp counts them (dot 16 B, update 48 B, direction 24 B per row); the pack reads a
// 4 B index and an 8 B entry and writes 8 B per sent entry, as the SpMV's.
constexpr double write_allocate_per_row = 8.0;
constexpr double pack_bytes_per_entry = 4.0 + 8.0 + 8.0;
constexpr double dot_bytes = 16.0, update_bytes = 48.0, direction_bytes = 24.0;

}  // namespace

Program cg_program(const Config& cfg, const Platform& platform, int ranks) {
  (void)platform;  // memory-bound throughout: the platform's bandwidths act in the simulator
  const bool overlap = cfg.params.get<CgConfig>().overlap;
  const auto gen = make_generator(cfg.matrix);

  Program p;
  p.workload = "cg";
  p.event_names = cg_event_names();
  p.iterations = cfg.run.warmup + cfg.run.iterations;
  p.warmup = cfg.run.warmup;
  p.delay_end = event_of(p, "delay_end");  // the real timeline has no delay_begin
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "exec";
  p.mpi_phases = {"post", "wait", "pq_allreduce", "rr_allreduce", "sync"};
  p.composites = {{"exec", {"interior", "spmv"}}, {"comm", {"pack", "post", "wait"}}};
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  p.steps = {mark("begin"), {Op::memory, pack}, mark("pack_end"), {Op::post, 0}, mark("post_end")};
  if (overlap) p.steps.insert(p.steps.end(), {{Op::memory, interior}, mark("interior_end")});
  p.steps.insert(p.steps.end(), {{Op::wait, 0}, mark("wait_end"), {Op::memory, spmv}, mark("spmv_end"), {Op::memory, dot},
                                 mark("pq_end"), {Op::allreduce, 0}, mark("pq_allreduce_end"), {Op::memory, update},
                                 mark("update_end"), {Op::allreduce, 0}, mark("rr_allreduce_end"), {Op::memory, direction},
                                 mark("direction_end"), {Op::delay, 0}});
  if (cfg.comm.sync != SyncMode::none) p.steps.push_back({Op::sync, 0});
  p.model = fmt::format(
      "cg ({} SpMV): memory-bound phases; per rank the rows, nonzeros and halo of the {} partition's row scan (desync "
      "plan); the product as the SpMV's model less q's write-allocate{}; dot {} B, update {} B, direction {} B per row "
      "(cg_kernels.hpp); pack {} B per sent entry; halo messages 8 B per entry, one per partner; the two allreduces as "
      "the simulator's collective (the last rank's arrival plus ceil(log2 P) x sync_latency); not simulated: the set-up "
      "product and the restarts of a converged solve (rare, outside the phases)",
      overlap ? "overlapped" : "plain", enum_name(partition_names, cfg.matrix.partition),
      overlap ? ", split into the rows that read no halo value (while the halo travels) and the others" : "", dot_bytes,
      update_bytes, direction_bytes, pack_bytes_per_entry);

  const MatrixRanks m = matrix_ranks(*gen, cfg.matrix.partition, ranks, overlap);
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    RankWork& w = p.ranks[r];
    const RankPattern& s = m.scans[r];
    const std::int64_t halo = halo_entries(m.plans[r].recv);
    const auto rows = static_cast<double>(s.rows);
    w.flops_per_iteration = cg_flops_per_iteration(rows, static_cast<double>(s.nnz));
    w.amount.assign(slots, 0.0);
    w.amount[pack] = pack_bytes_per_entry * static_cast<double>(halo_entries(m.plans[r].send));
    const double product = spmv_bytes(s.rows, s.nnz, halo, false) - write_allocate_per_row * rows;
    if (overlap) {
      // The interior rows (every entry in an own column) and their nonzeros, from the scan's lengths.
      std::int64_t inner_rows = 0, inner_nnz = 0;
      for (std::size_t i = 0; i < s.lengths.size(); ++i)
        if (s.local_lengths[i] == s.lengths[i]) {
          ++inner_rows;
          inner_nnz += s.lengths[i];
        }
      w.amount[interior] = spmv_bytes(inner_rows, inner_nnz, 0, false) - write_allocate_per_row * static_cast<double>(inner_rows);
      w.amount[spmv] = product - w.amount[interior];
    } else {
      w.amount[spmv] = product;
    }
    w.amount[dot] = dot_bytes * rows;
    w.amount[update] = update_bytes * rows;
    w.amount[direction] = direction_bytes * rows;
    w.partners = halo_partners(m.plans[r], 8, 1);
    w.exchange = {exchange_of(w.partners)};
    w.datasets = matrix_share_datasets(s.rows, s.nnz);
  }
  return p;
}

}  // namespace desync::sim
