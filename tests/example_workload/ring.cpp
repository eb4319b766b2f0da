#include "ring.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include "core/mpi_util.hpp"
#include "loop/experiment_loop.hpp"
#include "record/timeline.hpp"
#include "ring_config.hpp"

namespace desync {
namespace {

// The kernels as functors: nvcc does not take a device lambda inside the loop body's lambda.
struct Sum {
  Kokkos::View<double*> a;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double& s) const { s += a(i); }
};

struct Fill {
  Kokkos::View<double*> a;
  double value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { a(i) = value; }
};

}  // namespace

WorkloadResult run_ring(const Config& cfg, MPI_Comm comm) {
  const RingConfig& c = cfg.params.get<RingConfig>();
  const int rank = comm_rank(comm), size = comm_size(comm);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Comm ring;  // its own communicator: its tags meet no other traffic
  MPI_Comm_dup(comm, &ring);
  const std::int64_t n = c.size;
  Kokkos::View<double*> a("desync::ring::a", static_cast<std::size_t>(n));
  // Small integers: every sum and every division by n below is exact in doubles.
  Kokkos::deep_copy(a, static_cast<double>(rank + 1));

  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  WorkloadResult r(Timeline({"begin", "crunch_end", "post_end", "wait_end", "spread_end", "delay_end", "sync_end"}, total,
                            cfg.run.warmup));
  Timeline& tl = r.timeline;
  ExperimentLoop loop(cfg, comm, tl, cfg.comm.sync);
  double sum = 0.0, received = 0.0;
  MPI_Request req[2];
  r.stop_signal = loop.run(total, [&](std::int64_t it) {
    tl.mark(it, 0);
    Kokkos::parallel_reduce("desync::ring::crunch", n, Sum{a}, sum);
    tl.mark(it, 1);
    MPI_Irecv(&received, 1, MPI_DOUBLE, left, 0, ring, &req[0]);
    MPI_Isend(&sum, 1, MPI_DOUBLE, right, 0, ring, &req[1]);
    tl.mark(it, 2);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    tl.mark(it, 3);
    const double share = received / static_cast<double>(n);
    Kokkos::parallel_for("desync::ring::spread", n, Fill{a, share});
    Kokkos::fence();
    tl.mark(it, 4);
  });
  MPI_Comm_free(&ring);

  // The conserved quantity: the sum over ranks of every array is n (1 + ... + P) always.
  double local = 0.0, global = 0.0;
  Kokkos::parallel_reduce("desync::ring::check", n, Sum{a}, local);
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double expected = static_cast<double>(n) * size * (size + 1) / 2.0;
  r.elements_checked = 1;
  r.element_errors = global == expected ? 0 : 1;
  if (global != expected) r.extra_verdict = fmt::format("ring sum {} instead of {}", global, expected);
  r.work_phase = "crunch";
  r.bytes_per_iteration = 8.0 * static_cast<double>(n);
  r.flops_per_iteration = static_cast<double>(n);
  r.mpi_phases = {"post", "wait", "sync"};
  r.partners.send_rank = {right};
  r.partners.recv_rank = {left};
  r.partners.send_bytes = {8};
  r.partners.recv_bytes = {8};
  return r;
}

MemoryEstimate ring_memory(const Config& cfg, int, int) {
  MemoryEstimate m;
  m.knobs = fmt::format("[ring] size = {}", cfg.params.get<RingConfig>().size);
  m.add("array", 8.0 * static_cast<double>(cfg.params.get<RingConfig>().size));
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
