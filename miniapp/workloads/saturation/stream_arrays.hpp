#pragma once
// One set of STREAM arrays and the W workers that own them (stream_kernels.hpp): allocation
// without Kokkos' own initialization, first touch by the workers, one fenced sweep of a kernel,
// and the exact check of A. Used by the saturation sweep (threads: one set per N; ranks: one set
// per streaming rank) and by the STREAM table of the provenance (all threads of each rank).
#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"
#include "workloads/saturation/stream_kernels.hpp"

namespace desync::saturation {

// STREAM's bytes per element (write-allocate of A not counted): 16, 16, 24, 24, 24, 32.
double bytes_per_element(SaturationKernel k);

// The kernel reads C (add, triad, triad_nt, schoenauer) / D (schoenauer).
bool reads_c(SaturationKernel k);
bool reads_d(SaturationKernel k);

// Wall-clock readings around one sweep (local clock, s).
struct SweepInterval {
  double begin = 0.0, end = 0.0;
  double seconds() const { return end - begin; }
};

// One kernel's sweep by the workers: the kernel chosen once (StreamArrays::sweeper), so a timed
// repetition only launches it. Valid while its StreamArrays lives.
class KernelSweep {
 public:
  using Launch = void (*)(const Arrays&);
  KernelSweep(const Arrays& x, Launch launch) : x_(&x), launch_(launch) {}
  // One sweep, fenced before and after; the interval spans the launch and its fence only.
  SweepInterval operator()() const;

 private:
  const Arrays* x_;
  Launch launch_;
};

class StreamArrays {
 public:
  // n elements per array with global indices offset.., placed by `workers` workers; C and D are
  // allocated only if one of `kernels` reads them.
  StreamArrays(Index n, Index offset, Index workers, const std::vector<SaturationKernel>& kernels);

  // A = NaN (untimed, by the workers).
  void poison() const;
  // Kernel k's sweep, chosen here, once per kernel (a sweep's repetitions reuse it).
  KernelSweep sweeper(SaturationKernel k) const;
  // Elements of A that differ from kernel k's formula.
  std::int64_t count_wrong(SaturationKernel k) const;

  Index size() const { return x_.n; }
  const Vector& result() const { return x_.a; }  // A, for tests
  Index workers() const { return x_.workers; }

 private:
  Arrays x_;
};

}  // namespace desync::saturation
