#include "workloads/symmsquarecube/symmsquarecube.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "comm/gpu_aware.hpp"
#include "comm/node_layout.hpp"
#include "core/clock.hpp"
#include "core/fingerprint.hpp"
#include "core/log.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/labelled_fill.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "loop/fault_injection.hpp"
#include "metrics/phase_stats.hpp"
#include "workloads/symmsquarecube/ssc_input.hpp"
#include "workloads/symmsquarecube/ssc_mesh.hpp"
#include "workloads/symmsquarecube/ssc_projection.hpp"
#include "workloads/symmsquarecube/ssc_reference.hpp"
#include "workload/active_subset.hpp"

namespace desync {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Mesh extent p (q for 2.5d) and layers of `size` active ranks; the deck validation
// (symmsquarecube_module.cpp) guarantees they fit.
void mesh_shape(const SymmSquareCubeConfig& c, int size, int& p, int& layers) {
  if (c.algorithm == SscAlgorithm::twofive) {
    layers = static_cast<int>(c.replication);
    p = static_cast<int>(std::lround(std::sqrt(size / layers)));
  } else {
    p = static_cast<int>(std::lround(std::cbrt(size)));
    layers = p;
  }
}

void (*algorithm_call(SscAlgorithm a, int ndup))(SscMesh&, std::int64_t) {
  switch (a) {
    case SscAlgorithm::original: return ssc_original;
    case SscAlgorithm::baseline: return ssc_baseline;
    case SscAlgorithm::optimized: return ssc_optimized;
    case SscAlgorithm::twofive: return ndup > 1 ? ssc_twofive<true> : ssc_twofive<false>;
  }
  return nullptr;
}

}  // namespace

// How each algorithm's phases add up to the study's categories (papers.md E.6: broadcasts,
// reductions, point-to-point, local multiplies); overlapped phases keep their own names.
void ssc_categorize(WorkloadResult& r, SscAlgorithm a) {
  switch (a) {
    case SscAlgorithm::original:
      r.composites = {{"broadcasts", {"bcast1", "bcast2"}}, {"reductions", {"reduce1", "reduce2"}},
                      {"transfers", {"p2p1", "transpose", "p2p2"}}, {"multiplies", {"gemm1", "gemm2"}}};
      r.mpi_phases = {"bcast1", "reduce1", "p2p1", "transpose", "bcast2", "reduce2", "p2p2", "sync"};
      break;
    case SscAlgorithm::baseline:
      r.composites = {{"broadcasts", {"bcast1", "bcast2"}}, {"reductions", {"reduce1", "reduce2"}},
                      {"transfers", {"p2p"}}, {"multiplies", {"gemm1", "gemm2"}}};
      r.mpi_phases = {"bcast1", "reduce1", "bcast2", "reduce2", "p2p", "sync"};
      break;
    case SscAlgorithm::optimized:
      r.composites = {{"communication", {"bcast1", "reduce_bcast", "reduce_p2p"}}, {"multiplies", {"gemm1", "gemm2"}}};
      r.mpi_phases = {"bcast1", "reduce_bcast", "reduce_p2p", "sync"};
      break;
    case SscAlgorithm::twofive:
      r.composites = {{"collectives", {"bcast", "allreduce", "reduce"}}, {"cannon", {"cannon1", "cannon2"}}};
      r.mpi_phases = {"bcast", "allreduce", "reduce", "sync"};
      break;
  }
  r.work_phase = a == SscAlgorithm::twofive ? "cannon" : "multiplies";
}

WorkloadResult run_symmsquarecube(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::symmsquarecube");
  const SymmSquareCubeConfig& c = cfg.params.get<SymmSquareCubeConfig>();
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  ActiveRanks act(comm, l, static_cast<int>(cfg.placement.active_ppn));
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  std::vector<std::string> names = ssc_events(c.algorithm);
  const int last_event = static_cast<int>(names.size()) - 1;
  names.insert(names.end(), {"delay_end", "sync_end"});
  WorkloadResult r(Timeline(names, total, cfg.run.warmup));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  ssc_categorize(r, c.algorithm);
  ParkRecord park;
  // Run-level numbers, computed on the active ranks and passed to all: call time (median over
  // the measured calls of the slowest rank's), max relative error, mesh.
  double nums[6] = {nan, 0.0, 0, 0, 0, 0};  // call_time, max_error, p, layers, ndup, verified (1/0)

  if (!act.active()) {
    park = act.park();
  } else {
    const int rank = comm_rank(act.comm()), size = comm_size(act.comm());
    SscMesh m;
    mesh_shape(c, size, m.p, m.layers);
    const int p = m.p;
    m.k = rank / (p * p);
    m.i = rank / p % p;
    m.j = rank % p;
    m.cut = {c.n, p};
    m.ndup = static_cast<int>(cfg.comm.communicators);
    const bool twofive = c.algorithm == SscAlgorithm::twofive;
    // 3D: row P_{:,j,k}, col P_{i,:,k}; 2.5d: row P_{i,:,l}, col P_{:,j,l} (Cannon's directions).
    if (twofive) {
      m.row = split_family(act.comm(), m.k * p + m.i, m.j, m.ndup, ssc_row);
      m.col = split_family(act.comm(), m.k * p + m.j, m.i, m.ndup, ssc_col);
    } else {
      m.row = split_family(act.comm(), m.k * p + m.j, m.i, m.ndup, ssc_row);
      m.col = split_family(act.comm(), m.k * p + m.i, m.j, m.ndup, ssc_col);
    }
    m.grd = split_family(act.comm(), m.i * p + m.j, m.k, m.ndup, ssc_grd);
    m.global = std::make_unique<CommFamily>(act.comm(), m.ndup, ssc_global, false);
    if (cfg.comm.record_messages) {
      const std::int64_t per_call = 12 * m.ndup + 8 * p;
      r.collectives = std::make_shared<CollectiveLog>(std::min(cfg.comm.record_messages_max, total * per_call),
                                                      std::vector<std::string>{"row", "col", "grd", "global"});
    }
    // [comm] gpu_aware_mpi: staged, MPI gets host mirrors of the block buffers (registered below).
    m.coll = std::make_unique<Collectives>(6 * m.ndup + 8, r.collectives, choose_gpu_aware_mpi(cfg.comm.gpu_aware_mpi).staged);
    m.tl = &tl;
    const std::int64_t b = m.cut.b(), bb = b * b;
    const auto buffer = [](const char* name, std::int64_t n) { return BlockBuffer(std::string(name), static_cast<std::size_t>(n)); };
    m.a = buffer("desync::ssc::a", bb), m.b = buffer("desync::ssc::b", bb), m.c = buffer("desync::ssc::c", bb);
    m.d2 = buffer("desync::ssc::d2", twofive ? 1 : bb), m.d3 = buffer("desync::ssc::d3", twofive ? 1 : bb);
    m.r2 = buffer("desync::ssc::r2", bb), m.r3 = buffer("desync::ssc::r3", bb);
    m.t = buffer("desync::ssc::t", twofive ? bb : 1), m.an = buffer("desync::ssc::an", twofive ? bb : 1), m.bn = buffer("desync::ssc::bn", twofive ? bb : 1);
    for (const BlockBuffer* v : {&m.a, &m.b, &m.c, &m.d2, &m.d3, &m.r2, &m.r3, &m.t, &m.an, &m.bn})
      m.coll->mirror(v->data(), v->size() * sizeof(double));
    if (m.k == 0) {  // D_{i,j} on layer 0; the other layers receive it every call
      const std::int64_t r0 = m.cut.first(m.i), c0 = m.cut.first(m.j), nr = m.rows(m.i), n = c.n;
      const std::uint64_t seed = cfg.run.seed;
      const bool pur = c.input == SscInput::purification;
      BlockBuffer a = m.a;
      Kokkos::parallel_for("desync::ssc::input", Kokkos::RangePolicy<ExecSpace>(0, m.count(m.i, m.j)), KOKKOS_LAMBDA(std::int64_t e) {
        a(e) = ssc_entry(r0 + e % nr, c0 + e / nr, n, seed, pur);
      });
      Kokkos::fence();
    }
    void (*call)(SscMesh&, std::int64_t) = algorithm_call(c.algorithm, m.ndup);

    // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
    // Flops of this rank per call: its gemms.
    double flops = 0;
    if (twofive) {
      const int steps = p / m.layers, s0 = m.k * steps;
      for (int s = 0; s < steps; ++s) {
        const int t = (m.i + m.j + s0 + s) % p;
        flops += 2.0 * 2.0 * static_cast<double>(m.rows(m.i)) * static_cast<double>(m.rows(t)) * static_cast<double>(m.rows(m.j));
      }
    } else {
      flops = 2.0 * 2.0 * static_cast<double>(m.rows(m.i)) * static_cast<double>(m.rows(m.j)) * static_cast<double>(m.rows(m.k));
    }
    r.flops_per_iteration = flops;

    ExperimentLoop loop(cfg, act.comm(), r, cfg.comm.sync);
    // D is the same every call, so D^2 and D^3 are too: the checked (last) call starts with every
    // block buffer at NaN but layer 0's D (the input), host mirrors included when staged, or a
    // reduction, broadcast, shift or staging copy that delivered nothing there would still pass
    // on an earlier call's equal blocks. Before the call's first mark (in its wall time: one fill
    // of each block, against the call's gemms).
    std::vector<const BlockBuffer*> poisoned{&m.b, &m.c, &m.d2, &m.d3, &m.r2, &m.r3, &m.t, &m.an, &m.bn};
    if (m.k != 0) poisoned.push_back(&m.a);
    const auto reset = [&] {
      for (const BlockBuffer* v : poisoned) {
        static const std::string poison_label = "desync::ssc::poison";
        compat::labelled_fill(poison_label, *v, nan);
        m.coll->refresh_mirror(v->data(), v->size() * sizeof(double));
      }
    };
    const auto work = [&](std::int64_t it) {
      tl.mark(it, 0);
      call(m, it);
    };
    // The tests' fault injection (loop/fault_injection.hpp): the checked call delivers nothing (its
    // marks only: no product, collective or transfer), so layer 0's D^2 and D^3 are what the reset
    // left, not an earlier call's equal blocks.
    const auto lost = [&](std::int64_t it) {
      for (int e = 0; e <= last_event; ++e) tl.mark(it, e);
    };
    r.stop_signal = test_drop_last_delivery() ? loop.run_checked(total, reset, work, lost) : loop.run_checked(total, reset, work);

    // The call time: the slowest rank's, median over the measured calls.
    const std::int64_t done = tl.iterations();
    std::vector<double> d(static_cast<std::size_t>(done));
    for (std::int64_t it = 0; it < done; ++it) d[static_cast<std::size_t>(it)] = tl.at(it, last_event) - tl.at(it, 0);
    MPI_Allreduce(MPI_IN_PLACE, d.data(), static_cast<int>(done), MPI_DOUBLE, MPI_MAX, act.comm());
    nums[0] = min_med_max(std::vector<double>(d.begin() + std::min(tl.warmup(), done), d.end())).median;

    // Layer 0 holds D^2_{i,j} and D^3_{i,j}: finite always, checked entry by entry against the
    // serial product up to verify_n, above by the projection (ssc_projection.hpp, N^2 work),
    // fingerprinted for the tests' bitwise comparisons.
    const bool verify = r.stop_signal == 0 && done > 0;
    if (m.k == 0 && done > 0) {
      const std::int64_t n = m.count(m.i, m.j);
      const std::vector<double> got2 = to_host(m.r2, n), got3 = to_host(m.r3, n);
      r.nonfinite = count_nonfinite(got2.data(), got2.size()) + count_nonfinite(got3.data(), got3.size());
      std::vector<double> both(got2);
      both.insert(both.end(), got3.begin(), got3.end());
      r.result_fingerprint = fingerprint_bytes(both.data(), both.size() * sizeof(double));
      r.result_norm2 = sum_of_squares(both.data(), both.size());
      r.has_result_digest = true;
      if (verify) {
        // The projection costs about (1 + 2 / p) N^2 entry evaluations on each layer-0 rank (about
        // a minute at N = 1e5 on one core): a long run's rank 0 says so before and after.
        const bool projection = c.n > c.verify_n;
        const bool announce = projection && cfg.run.progress_interval > 0 && static_cast<double>(c.n) * static_cast<double>(c.n) >= 1e8;
        const double t0 = now();
        if (announce)
          log::info("  checking D^2 and D^3 by Freivalds' projection (N = {} above verify_n = {}: about {:.2g} entry "
                    "evaluations per layer-0 rank) ...\n",
                    c.n, c.verify_n, (1.0 + 2.0 / p) * static_cast<double>(c.n) * static_cast<double>(c.n));
        const SscCheck chk = projection ? ssc_projection_check(c, cfg.run.seed, m.cut, m.i, m.j, got2, got3)
                                        : ssc_check(c, cfg.run.seed, m.cut, m.i, m.j, got2, got3);
        if (announce) log::info("  checked in {:.1f} s (rank 0)\n", now() - t0);
        r.elements_checked = chk.checked;
        r.element_errors = chk.wrong;
        nums[1] = chk.max_error;
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &nums[1], 1, MPI_DOUBLE, MPI_MAX, act.comm());
    nums[2] = p;
    nums[3] = m.layers;
    nums[4] = m.ndup;
    nums[5] = verify ? 1 : 0;
  }
  finish_active_subset(r, comm, act, l, static_cast<int>(cfg.placement.active_ppn), park);
  MPI_Bcast(nums, 6, MPI_DOUBLE, 0, comm);
  if (nums[5] == 0) r.verification_skipped = "the run stopped before its last call";
  else if (c.n > c.verify_n)
    r.verification_scope = fmt::format("symmsquarecube above verify_n = {}: D^2 and D^3 checked by Freivalds' projection, "
                                       "not entry by entry", c.verify_n);
  ssc_run_metrics(c, nums[0], &nums[1], static_cast<int>(nums[2]), static_cast<int>(nums[3]), static_cast<int>(nums[4]), r);
  return r;
}

void ssc_run_metrics(const SymmSquareCubeConfig& c, double call_time, const double* max_error, int p, int layers, int ndup,
                     WorkloadResult& r) {
  const double n3 = static_cast<double>(c.n) * static_cast<double>(c.n) * static_cast<double>(c.n);
  const double tflops = 4.0 * n3 / call_time * 1e-12;
  r.metrics.push_back({"call_time", call_time, "s"});
  r.metrics.push_back({"tflops", tflops, "TFlop/s"});
  if (max_error) r.metrics.push_back({"max_relative_error", *max_error, "1"});
  r.metrics.push_back(count_value("mesh_p", p));
  r.metrics.push_back(count_value("mesh_layers", layers));
  r.metrics.push_back(count_value("n_dup", ndup));
  r.report = fmt::format("SymmSquareCube ({}): N = {} on a {} x {} x {} mesh, N_DUP = {}: call {:.3f} ms (median, slowest rank), "
                         "{:.4g} TFlop/s (4 N^3 flops per call)\n",
                         enum_name(ssc_algorithm_names, c.algorithm), c.n, p, p, layers, ndup, call_time * 1e3, tflops);
}

MemoryEstimate symmsquarecube_memory(const Config& cfg, int, int size) {
  const SymmSquareCubeConfig& c = cfg.params.get<SymmSquareCubeConfig>();
  const bool twofive = c.algorithm == SscAlgorithm::twofive;
  int active = size;
  if (cfg.placement.active_ppn > 0 && cfg.placement.ranks_per_node > 0)
    active = static_cast<int>(std::max<std::int64_t>(1, size / cfg.placement.ranks_per_node * cfg.placement.active_ppn));
  const double p = twofive ? std::floor(std::sqrt(static_cast<double>(active) / static_cast<double>(c.replication)) + 0.5)
                           : std::floor(std::cbrt(static_cast<double>(active)) + 0.5);
  const double b = std::ceil(static_cast<double>(c.n) / std::max(1.0, p));
  MemoryEstimate m;
  m.knobs = fmt::format("[symmsquarecube] n = {}", c.n);
  m.add("blocks", (twofive ? 8.0 : 7.0) * 8.0 * b * b);
  if (c.n <= c.verify_n) m.add("serial check (layer 0)", 8.0 * static_cast<double>(c.n) * static_cast<double>(c.n) * 1.5);
  else m.add("projection check (layer 0)", 8.0 * (6.0 * static_cast<double>(c.n) + 3.0 * b * b));
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
