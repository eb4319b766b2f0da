#include "workloads/triad/triad.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "workloads/triad/neighbour_exchange.hpp"
#include "core/mpi_util.hpp"
#include "core/types.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "record/iteration_events.hpp"
#include "workloads/triad/triad_kernels.hpp"

namespace desync {
namespace {

struct Arrays {
  Vector a, b, c, d;
  Index offset = 0;
};

Arrays make_arrays(const TriadConfig& cfg, int rank, int size) {
  const Index n = triad_local_size(cfg, rank, size);
  Index offset = 0;
  for (int r = 0; r < rank; ++r) offset += triad_local_size(cfg, r, size);
  Arrays x;
  x.offset = offset;
  x.a = Vector("desync::triad::a", n);
  x.b = Vector("desync::triad::b", n);
  x.c = Vector("desync::triad::c", n);
  x.d = Vector("desync::triad::d", cfg.kernel == TriadKernel::schoenauer ? n : 0);
  Kokkos::parallel_for("desync::triad::init", RangePolicy(0, n), triad::Init{x.a, x.b, x.c, x.d, offset});
  return x;
}

// One sweep of the deck's kernel, chosen here, once, at set-up: the loop calls the returned
// function and branches on nothing (a switch per sweep would be an option chosen in the loop).
// The fence makes the sweep's end mark the kernel's end, not its launch's.
std::function<void()> make_sweep(const TriadConfig& cfg, const Arrays& x) {
  const auto n = static_cast<Index>(x.a.extent(0));
  // The label a std::string held by the sweep: Kokkos takes const std::string&, and a literal
  // would become a new string (a heap allocation) at every launch.
  const auto of = [n](std::string label, auto kernel) -> std::function<void()> {
    return [n, label, kernel] {
      triad::stream_for(label, n, kernel);
      ExecSpace().fence();
    };
  };
  switch (cfg.kernel) {
    case TriadKernel::stream: return of("desync::triad::stream", triad::Stream{x.a, x.b, x.c, cfg.scalar});
    case TriadKernel::schoenauer: return of("desync::triad::schoenauer", triad::Schoenauer{x.a, x.b, x.c, x.d});
    case TriadKernel::divide: return of("desync::triad::divide", triad::Divide{x.a, x.b, cfg.divides});
  }
  throw std::logic_error("triad: unknown kernel");
}

}  // namespace

namespace {

// Every element of A against the value recomputed from its global index.
struct CountWrong {
  Vector a;
  Index offset;
  TriadKernel kernel;
  double s;
  Index divides;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index& wrong) const {
    const Index g = offset + i;
    double expect = 0.0;
    if (kernel == TriadKernel::stream) expect = triad::init_b(g) + s * triad::init_c(g);
    if (kernel == TriadKernel::schoenauer) expect = triad::init_b(g) + compat::cos(triad::init_c(g) / triad::init_d(g));
    if (kernel == TriadKernel::divide) expect = triad::divide_chain(triad::init_b(g), divides);
    // A few ulps: the compiler may contract b + s*c into an FMA in one place and not the other.
    const double tol = 1e-13 * (compat::fabs(expect) + 1.0);
    if (!(compat::fabs(a(i) - expect) <= tol) || !(a(i) - a(i) == 0.0)) ++wrong;  // also Inf/NaN
  }
};

}  // namespace

std::int64_t triad_count_wrong(const Vector& a, Index offset, const TriadConfig& cfg) {
  Index wrong = 0;
  Kokkos::parallel_reduce("desync::triad::verify", RangePolicy(0, static_cast<Index>(a.extent(0))),
                          CountWrong{a, offset, cfg.kernel, cfg.scalar, cfg.divides}, wrong);
  return wrong;
}

std::int64_t triad_local_size(const TriadConfig& cfg, int rank, int size) {
  if (cfg.global_size <= 0) return cfg.size_per_rank;
  return cfg.global_size / size + (rank < cfg.global_size % size ? 1 : 0);
}

double triad_bytes_per_element(TriadKernel kernel, bool write_allocate) {
  const double wa = write_allocate ? 8.0 : 0.0;
  switch (kernel) {
    case TriadKernel::stream: return 24.0 + wa;
    case TriadKernel::schoenauer: return 32.0 + wa;
    case TriadKernel::divide: return 16.0 + wa;
  }
  return 0.0;
}

WorkloadResult run_triad(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::triad");
  const int rank = comm_rank(comm), size = comm_size(comm);
  const Arrays x = make_arrays(cfg.params.get<TriadConfig>(), rank, size);
  const Communicators comms(comm, cfg.comm);
  NeighbourExchange exchange(comms, cfg.params.get<TriadConfig>(), cfg.comm);
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  WorkloadResult r(Timeline(iteration_event_names(), total, cfg.run.warmup));
  Timeline& tl = r.timeline;
  const TriadConfig& t = cfg.params.get<TriadConfig>();
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();
  const Partners& p = exchange.partners();
  for (std::size_t k = 0; k < p.send_to.size(); ++k) {
    r.partners.send_rank.push_back(p.send_to[k]);
    r.partners.recv_rank.push_back(p.recv_from[k]);
    r.partners.send_bytes.push_back(p.send_to[k] >= 0 ? t.message_bytes : 0);
    r.partners.recv_bytes.push_back(p.recv_from[k] >= 0 ? t.message_bytes : 0);
  }
  r.datasets.push_back({"comm", "offsets", "1", {t.offsets.size()},
                        std::vector<double>(t.offsets.begin(), t.offsets.end()), false, true});
  r.bytes_per_iteration = static_cast<double>(x.a.extent(0)) *
                          triad_bytes_per_element(t.kernel, t.write_allocate);
  r.flops_per_iteration = static_cast<double>(x.a.extent(0)) * (t.kernel == TriadKernel::divide ? t.divides : 2);
  const std::function<void()> sweep = make_sweep(t, x);
  ExperimentLoop loop(cfg, comm, r, cfg.comm.sync);
  // The papers' delay slot: extra work after the sweep, before communicating.
  r.stop_signal = loop.run(
      total,
      [&](std::int64_t it) {
        tl.mark(it, ev::compute_begin);
        sweep();
        tl.mark(it, ev::compute_end);
      },
      [&](std::int64_t it) {
        exchange.post(it);
        tl.mark(it, ev::post_end);
        exchange.wait();
        tl.mark(it, ev::wait_end);
      });

  const std::int64_t wrong = triad_count_wrong(x.a, x.offset, cfg.params.get<TriadConfig>());
  r.elements_checked = static_cast<std::int64_t>(x.a.extent(0));
  r.element_errors = wrong;
  r.messages_checked = exchange.messages_checked();
  r.message_errors = exchange.stamp_errors();
  return r;
}

}  // namespace desync
