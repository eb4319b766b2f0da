#include "workloads/saturation/stream_arrays.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/clock.hpp"

namespace desync::saturation {
namespace {

// W work items in chunks of one: item w is worker w (OpenMP: thread w runs it).
using WorkerPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>;
using HostWorkerPolicy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<Index>>;

template <class Policy>
Policy workers_policy(Index workers) {
  Policy p(0, workers);
  p.set_chunk_size(1);
  return p;
}

Vector uninitialized(const char* label, Index n) {
  return Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

// The kernels' launches, one function each (KernelSweep's Launch).
template <class Kernel>
void launch(const Arrays& x) {
  static const std::string label = Kernel::label;  // once: timed, and Kokkos copies a literal per launch
  Kokkos::parallel_for(label, workers_policy<WorkerPolicy>(x.workers), Kernel{x});
}

// Refused at load where not available (saturation_rules.cpp, its module's deck rule); the host
// space is then the default one, so the arrays are the workers' own.
void launch_triad_nt(const Arrays& x) {
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string triad_nt_label = "desync::saturation::triad_nt";
  Kokkos::parallel_for(triad_nt_label, workers_policy<HostWorkerPolicy>(x.workers), TriadNt{x});
}

}  // namespace

double bytes_per_element(SaturationKernel k) {
  switch (k) {
    case SaturationKernel::copy:
    case SaturationKernel::scale: return 16.0;
    case SaturationKernel::add:
    case SaturationKernel::triad:
    case SaturationKernel::triad_nt: return 24.0;
    case SaturationKernel::schoenauer: return 32.0;
  }
  return 0.0;
}

bool reads_c(SaturationKernel k) { return k != SaturationKernel::copy && k != SaturationKernel::scale; }
bool reads_d(SaturationKernel k) { return k == SaturationKernel::schoenauer; }

StreamArrays::StreamArrays(Index n, Index offset, Index workers, const std::vector<SaturationKernel>& kernels) {
  if (workers < 1) throw std::invalid_argument("StreamArrays: at least one worker");
  const bool need_c = std::any_of(kernels.begin(), kernels.end(), reads_c);
  const bool need_d = std::any_of(kernels.begin(), kernels.end(), reads_d);
  x_.n = n;
  x_.offset = offset;
  x_.workers = workers;
  x_.a = uninitialized("desync::saturation::a", n);
  x_.b = uninitialized("desync::saturation::b", n);
  x_.c = uninitialized("desync::saturation::c", need_c ? n : 0);
  x_.d = uninitialized("desync::saturation::d", need_d ? n : 0);
  Kokkos::parallel_for("desync::saturation::first_touch", workers_policy<WorkerPolicy>(workers), Init{x_});
  ExecSpace().fence();
}

void StreamArrays::poison() const {
  Kokkos::parallel_for("desync::saturation::poison", workers_policy<WorkerPolicy>(x_.workers), Poison{x_});
  ExecSpace().fence();
}

KernelSweep StreamArrays::sweeper(SaturationKernel k) const {
  switch (k) {
    case SaturationKernel::copy: return {x_, launch<Copy>};
    case SaturationKernel::scale: return {x_, launch<Scale>};
    case SaturationKernel::add: return {x_, launch<Add>};
    case SaturationKernel::triad: return {x_, launch<Triad>};
    case SaturationKernel::triad_nt:
      if (!nt_stores_available) throw std::logic_error("triad_nt without non-temporal stores");
      return {x_, launch_triad_nt};
    case SaturationKernel::schoenauer: return {x_, launch<Schoenauer>};
  }
  throw std::logic_error("StreamArrays::sweeper: unknown kernel");
}

SweepInterval KernelSweep::operator()() const {
  ExecSpace().fence();
  const double t0 = now();
  launch_(*x_);
  ExecSpace().fence();
  return {t0, now()};
}

std::int64_t StreamArrays::count_wrong(SaturationKernel k) const {
  Index wrong = 0;
  Kokkos::parallel_reduce("desync::saturation::verify", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>(0, x_.n),
                          CountWrong{x_.a, x_.offset, k}, wrong);
  return wrong;
}

}  // namespace desync::saturation
