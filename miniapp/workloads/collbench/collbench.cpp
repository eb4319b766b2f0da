#include "workloads/collbench/collbench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/node_layout.hpp"
#include "core/clock.hpp"
#include "core/mix64.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "loop/fault_injection.hpp"
#include "metrics/phase_stats.hpp"
#include "workload/active_subset.hpp"

namespace desync {
namespace {

namespace collbench_event {
enum : int { begin, post_end, wait_end };
}  // namespace collbench_event
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Element i of the contribution of rank q of column `column`: small integers (0 .. 15), so
// float sums are exact, from a hash without a period (core/mix64.hpp): a part (N_DUP), a block of
// another offset or another column's data delivered in its place does not hold the same values.
inline float pattern(int column, int q, std::int64_t i) {
  return static_cast<float>(mix64(static_cast<std::uint64_t>(column), static_cast<std::uint64_t>(q), static_cast<std::uint64_t>(i)) >> 60);
}

int columns(const Config& cfg, const NodeLayout& l) {
  const int a = static_cast<int>(cfg.placement.active_ppn);
  return a > 0 ? std::min(a, l.ppn_max) : l.ppn_max;
}

}  // namespace

std::int64_t collbench_rows(const Config& cfg, int) {
  return static_cast<std::int64_t>(cfg.params.get<CollbenchConfig>().sizes.size() * cfg.params.get<CollbenchConfig>().ops.size()) * cfg.run.iterations;
}

void collbench_axes(const Config& cfg, WorkloadResult& r) {
  const CollbenchConfig& c = cfg.params.get<CollbenchConfig>();
  const std::vector<double> bytes(c.sizes.begin(), c.sizes.end());
  std::vector<double> ops(c.ops.size());
  for (std::size_t o = 0; o < c.ops.size(); ++o) ops[o] = c.ops[o] == CollOp::bcast ? 0 : 1;
  r.datasets.push_back({"collbench", "bytes", "B", {static_cast<std::uint64_t>(bytes.size())}, bytes, false, true});
  r.datasets.push_back({"collbench", "op", "1", {static_cast<std::uint64_t>(ops.size())}, ops, false, true});
}

void collbench_tables(const Config& cfg, const CollbenchShape& shape, const std::vector<double>& duration, std::int64_t done,
                      const std::vector<double>& post_med, const std::vector<double>& wait_med, WorkloadResult& r) {
  const CollbenchConfig& c = cfg.params.get<CollbenchConfig>();
  const std::int64_t reps = cfg.run.iterations, nsizes = static_cast<std::int64_t>(c.sizes.size()),
                     nops = static_cast<std::int64_t>(c.ops.size());
  const int p = shape.group, k = shape.columns, ndup = shape.ndup;
  const auto ns = static_cast<std::uint64_t>(nsizes), no = static_cast<std::uint64_t>(nops), nd = static_cast<std::uint64_t>(ndup);
  const std::size_t cells = static_cast<std::size_t>(nsizes * nops);
  const std::vector<double> bytes(c.sizes.begin(), c.sizes.end());
  // Per (size, op): the slowest rank's time, median and minimum over the repetitions done.
  std::vector<double> t_med(cells, nan), t_min(cells, nan), bw(cells, nan);
  for (std::int64_t s = 0; s < nsizes; ++s)
    for (std::int64_t o = 0; o < nops; ++o) {
      std::vector<double> v;
      v.reserve(static_cast<std::size_t>(reps));
      for (std::int64_t i = 0; i < reps; ++i) {
        const std::int64_t it = (s * nops + o) * reps + i;
        if (it < done) v.push_back(duration[static_cast<std::size_t>(it)]);
      }
      const std::size_t cell = static_cast<std::size_t>(s * nops + o);
      if (v.empty()) continue;
      const MinMedMax m = min_med_max(v);
      t_med[cell] = m.median;
      t_min[cell] = m.min;
      bw[cell] = 2.0 * (p - 1) * bytes[static_cast<std::size_t>(s)] / p / t_med[cell];
    }
  r.datasets.push_back({"collbench", "time_median", "s", {ns, no}, t_med, false, false});
  r.datasets.push_back({"collbench", "time_min", "s", {ns, no}, t_min, false, false});
  r.datasets.push_back({"collbench", "bandwidth", "B/s", {ns, no}, bw, false, false});
  r.datasets.push_back({"collbench", "post_time", "s", {ns, no, nd}, post_med, true, false});
  r.datasets.push_back({"collbench", "wait_time", "s", {ns, no, nd}, wait_med, true, false});
  for (std::int64_t o = 0; o < nops; ++o) {
    double peak = 0;
    for (std::int64_t s = 0; s < nsizes; ++s)
      if (std::isfinite(bw[static_cast<std::size_t>(s * nops + o)])) peak = std::max(peak, bw[static_cast<std::size_t>(s * nops + o)]);
    r.metrics.push_back({fmt::format("peak_{}_bandwidth", enum_name(coll_op_names, c.ops[static_cast<std::size_t>(o)])), peak, "B/s"});
  }
  r.metrics.push_back(count_value("group_size", p));
  r.metrics.push_back(count_value("columns", k));
  r.metrics.push_back(count_value("n_dup", ndup));

  // The report: time and bandwidth per size; rank 0's per-part post and wait times at the
  // study's 2 MB and 8 MB (or the largest size).
  std::string& rep = r.report;
  rep = fmt::format("collbench: {} over {} node(s), {} column(s) of {} rank(s), N_DUP {}, {} repetitions (slowest rank, median):\n",
                    enum_name(coll_mode_names, c.mode), shape.nodes, k, p, ndup, reps);
  rep += fmt::format("  {:>10}", "bytes");
  for (auto op : c.ops) rep += fmt::format(" {:>10} {:>9}", fmt::format("{} [us]", enum_name(coll_op_names, op)), "[MB/s]");
  rep += "\n";
  for (std::int64_t s = 0; s < nsizes; ++s) {
    rep += fmt::format("  {:>10}", c.sizes[static_cast<std::size_t>(s)]);
    for (std::int64_t o = 0; o < nops; ++o)
      rep += fmt::format(" {:>10.1f} {:>9.1f}", t_med[static_cast<std::size_t>(s * nops + o)] * 1e6, bw[static_cast<std::size_t>(s * nops + o)] * 1e-6);
    rep += "\n";
  }
  // Per part post and wait times where they were measured (a simulation has none: its posts are
  // the first stage's messages only, docs/simulate.md, "Collectives").
  std::vector<std::int64_t> detail;
  const bool per_part = std::any_of(post_med.begin(), post_med.end(), [](double v) { return !std::isnan(v); });
  for (std::int64_t s = 0; s < nsizes && per_part; ++s)
    if (c.sizes[static_cast<std::size_t>(s)] == 2097152 || c.sizes[static_cast<std::size_t>(s)] == 8388608) detail.push_back(s);
  if (detail.empty() && per_part) detail.push_back(std::max_element(c.sizes.begin(), c.sizes.end()) - c.sizes.begin());
  for (std::int64_t s : detail)
    for (std::int64_t o = 0; o < nops; ++o) {
      const std::size_t cell = static_cast<std::size_t>(s * nops + o) * static_cast<std::size_t>(ndup);
      std::string post, wait;
      for (int d = 0; d < ndup; ++d) {
        post += fmt::format(" {:.0f}", post_med[cell + static_cast<std::size_t>(d)] * 1e6);
        wait += fmt::format(" {:.0f}", wait_med[cell + static_cast<std::size_t>(d)] * 1e6);
      }
      rep += fmt::format("  rank 0, {} B {}: post [us]{}; wait [us]{}\n", c.sizes[static_cast<std::size_t>(s)],
                         enum_name(coll_op_names, c.ops[static_cast<std::size_t>(o)]), post,
                         c.mode == CollMode::nonblocking ? wait : " (blocking: in the post)");
    }
}

WorkloadResult run_collbench(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::collbench");
  const CollbenchConfig& c = cfg.params.get<CollbenchConfig>();
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  ActiveRanks act(comm, l, static_cast<int>(cfg.placement.active_ppn));
  const int k = columns(cfg, l);
  const int ndup = c.mode == CollMode::nonblocking ? static_cast<int>(cfg.comm.communicators) : 1;
  const std::int64_t reps = cfg.run.iterations, nsizes = static_cast<std::int64_t>(c.sizes.size()),
                     nops = static_cast<std::int64_t>(c.ops.size());
  const std::int64_t rows = nsizes * nops * reps;
  WorkloadResult r(Timeline({"begin", "post_end", "wait_end", "delay_end", "sync_end"}, rows, 0));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.work_phase = "post";
  r.mpi_phases = {"post", "wait", "sync"};
  collbench_axes(cfg, r);
  const std::size_t cells = static_cast<std::size_t>(nsizes * nops);
  // Per rank and (size, op, part): median post-call and wait times; NaN where not measured.
  std::vector<double> post_med(cells * static_cast<std::size_t>(ndup), nan), wait_med(post_med);
  std::vector<double> duration(static_cast<std::size_t>(rows), 0.0);  // per timed repetition, then max over ranks
  ParkRecord park;
  int p = l.nodes;
  std::int64_t checked = 0, wrong = 0;

  if (!act.active()) {
    park = act.park();
  } else {
    auto fam = split_family(act.comm(), l.local, l.node, ndup, 0);  // column l: rank l of every node
    p = fam->size();
    const bool root = fam->rank() == 0;
    if (cfg.comm.record_messages)
      r.collectives = std::make_shared<CollectiveLog>(std::min(cfg.comm.record_messages_max,
                                                               nsizes * nops * (cfg.run.warmup + reps) * ndup),  // warm-up calls log too
                                                      std::vector<std::string>{"column"});
    Collectives coll(ndup, r.collectives);
    const std::int64_t largest = *std::max_element(c.sizes.begin(), c.sizes.end()) / 4;
    const std::int64_t share_max = part_of(largest, k, 0).count;
    std::vector<float> send(static_cast<std::size_t>(std::max<std::int64_t>(share_max, 1))), recv(send.size());
    std::vector<double> post_d(static_cast<std::size_t>(reps * ndup), nan), wait_d(post_d);
    ExperimentLoop loop(cfg, act.comm(), r, cfg.comm.sync);

    // One repetition of each (operation, mode), chosen once per size and operation. pd, wd: the
    // repetition's per-part post and wait times (the warm-up writes into a scratch row).
    std::int64_t count = 0;  // this column's floats at the current size
    float* bbuf = nullptr;   // the broadcast's buffer: the root's data, the others' receive buffer
    std::vector<double> scratch(static_cast<std::size_t>(ndup));
    const auto blocking_bcast = [&](double* pd, double*) {
      const double t0 = now();
      coll.bcast(*fam, bbuf, count, MPI_FLOAT, 0);
      pd[0] = now() - t0;
    };
    const auto blocking_reduce = [&](double* pd, double*) {
      const double t0 = now();
      coll.reduce(*fam, send.data(), recv.data(), count, MPI_FLOAT, 0);
      pd[0] = now() - t0;
    };
    const auto wait_parts = [&](double* wd) {
      for (int d = 0; d < ndup; ++d) {
        const double t0 = now();
        coll.wait(d);
        wd[d] = now() - t0;
      }
      coll.wait_all();
    };
    const auto nonblocking_bcast = [&](double* pd, double* wd) {
      for (int d = 0; d < ndup; ++d) {
        const Part pt = part_of(count, ndup, d);
        const double t0 = now();
        coll.ibcast(*fam, d, bbuf + pt.offset, pt.count, MPI_FLOAT, 0);
        pd[d] = now() - t0;
      }
      wait_parts(wd);
    };
    const auto nonblocking_reduce = [&](double* pd, double* wd) {
      for (int d = 0; d < ndup; ++d) {
        const Part pt = part_of(count, ndup, d);
        const double t0 = now();
        coll.ireduce(*fam, d, send.data() + pt.offset, recv.data() + pt.offset, pt.count, MPI_FLOAT, 0);
        pd[d] = now() - t0;
      }
      wait_parts(wd);
    };
    using Repetition = std::function<void(double*, double*)>;
    const Repetition one_of[2][2] = {{blocking_bcast, blocking_reduce}, {nonblocking_bcast, nonblocking_reduce}};

    // One cell per (size, operation): its buffers, a barrier and the untimed warm-up, then the
    // timed repetitions (each one iteration of the loop), then the cell's post/wait split and the
    // check of what the last repetition delivered.
    bool bcast = false;
    const Repetition* one = nullptr;
    // A repetition: its marks around op (the cell's collective, or nothing).
    const auto repetition_of = [&](std::int64_t it, const auto& op) {
      const std::int64_t i = it % reps;
      tl.mark(it, collbench_event::begin);
      op(&post_d[static_cast<std::size_t>(i * ndup)], &wait_d[static_cast<std::size_t>(i * ndup)]);
      tl.mark(it, collbench_event::post_end);
      tl.mark(it, collbench_event::wait_end);
    };
    const auto repetition = [&](std::int64_t it) { repetition_of(it, *one); };
    // The tests' fault injection (loop/fault_injection.hpp): the checked repetition without its collective.
    const auto lost = [&](std::int64_t it) { repetition_of(it, [](double*, double*) {}); };
    // Chosen once: a cell's last repetition runs through it (one call per cell).
    const std::function<void(std::int64_t)> checked_repetition =
        test_drop_last_delivery() ? std::function<void(std::int64_t)>(lost) : std::function<void(std::int64_t)>(repetition);
    r.stop_signal = loop.run_cells_checked(
        nsizes * nops, reps,
        [&](std::int64_t cell) {
          const std::int64_t s = cell / nops, o = cell % nops;
          count = part_of(c.sizes[static_cast<std::size_t>(s)] / 4, k, l.local).count;
          bcast = c.ops[static_cast<std::size_t>(o)] == CollOp::bcast;
          one = &one_of[c.mode == CollMode::nonblocking ? 1 : 0][bcast ? 0 : 1];
          for (std::int64_t i = 0; i < count; ++i) send[static_cast<std::size_t>(i)] = pattern(l.local, fam->rank(), i);
          bbuf = root ? send.data() : recv.data();
          std::fill(post_d.begin(), post_d.end(), nan);
          std::fill(wait_d.begin(), wait_d.end(), nan);
          MPI_Barrier(act.comm());
          for (std::int64_t w = 0; w < cfg.run.warmup; ++w) (*one)(scratch.data(), scratch.data());
        },
        // What arrives last is checked: the receive buffers start the cell's last repetition at -1.
        [&](std::int64_t) { std::fill(recv.begin(), recv.end(), -1.0f); }, repetition, checked_repetition,
        [&](std::int64_t cell, bool complete) {
          const bool nb = c.mode == CollMode::nonblocking;
          // The post/wait split is known per part only here: rewrite post_end as the end of the
          // posts (blocking: the call itself, so wait is 0).
          for (std::int64_t i = 0; i < reps; ++i) {
            const std::int64_t it = cell * reps + i;
            if (std::isnan(post_d[static_cast<std::size_t>(i * ndup)])) continue;
            double posts = 0;
            for (int d = 0; d < ndup; ++d) posts += post_d[static_cast<std::size_t>(i * ndup + d)];
            namespace ev = collbench_event;
            tl.set(it, ev::post_end, std::min(tl.at(it, ev::begin) + posts, tl.at(it, ev::wait_end)));
            duration[static_cast<std::size_t>(it)] = tl.at(it, ev::wait_end) - tl.at(it, ev::begin);
          }
          std::vector<double> v(static_cast<std::size_t>(reps));
          for (int d = 0; d < ndup; ++d) {
            for (std::int64_t i = 0; i < reps; ++i) v[static_cast<std::size_t>(i)] = post_d[static_cast<std::size_t>(i * ndup + d)];
            post_med[static_cast<std::size_t>(cell) * static_cast<std::size_t>(ndup) + static_cast<std::size_t>(d)] = min_med_max(v).median;
            if (!nb) continue;
            for (std::int64_t i = 0; i < reps; ++i) v[static_cast<std::size_t>(i)] = wait_d[static_cast<std::size_t>(i * ndup + d)];
            wait_med[static_cast<std::size_t>(cell) * static_cast<std::size_t>(ndup) + static_cast<std::size_t>(d)] = min_med_max(v).median;
          }
          // Verify what the last repetition delivered (skipped if the run stopped inside this cell).
          if (!complete) return;
          if (bcast) {
            const float* got = bbuf;
            for (std::int64_t i = 0; i < count; ++i) wrong += got[i] != pattern(l.local, 0, i);
            checked += count;
          } else if (root) {
            for (std::int64_t i = 0; i < count; ++i) {
              double sum = 0;
              for (int q = 0; q < p; ++q) sum += pattern(l.local, q, i);
              wrong += static_cast<double>(recv[static_cast<std::size_t>(i)]) != sum;
            }
            checked += count;
          }
        });
    MPI_Allreduce(MPI_IN_PLACE, duration.data(), static_cast<int>(rows), MPI_DOUBLE, MPI_MAX, act.comm());
  }
  finish_active_subset(r, comm, act, l, static_cast<int>(cfg.placement.active_ppn), park);
  MPI_Bcast(duration.data(), static_cast<int>(rows), MPI_DOUBLE, 0, comm);
  MPI_Bcast(&p, 1, MPI_INT, 0, comm);

  collbench_tables(cfg, {l.nodes, k, p, ndup}, duration, tl.iterations(), post_med, wait_med, r);
  r.elements_checked = checked;
  r.element_errors = wrong;
  return r;
}

MemoryEstimate collbench_memory(const Config& cfg, int, int) {
  const CollbenchConfig& c = cfg.params.get<CollbenchConfig>();
  const double largest = static_cast<double>(*std::max_element(c.sizes.begin(), c.sizes.end()));
  MemoryEstimate m;
  m.knobs = fmt::format("[collbench] sizes (largest {} B)", static_cast<long long>(largest));
  m.add("send and receive buffers", 2.0 * largest);
  m.add("timeline", Timeline::bytes_estimate(collbench_rows(cfg)) + 24.0 * static_cast<double>(collbench_rows(cfg)));
  return m;
}

}  // namespace desync
