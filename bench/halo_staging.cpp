// The halo exchange of device buffers with and without GPU-aware MPI (issue 32; docs/method.md
// section 28): each rank exchanges one message of B bytes with each ring neighbour, from and
// into buffers of the default memory space, through the comm layer's Exchange, once staged
// through pinned host buffers ([comm] gpu_aware_mpi = "off": copy out, MPI, copy in) and once
// with the buffers handed to MPI as they are ("on"), alternating in rounds, each from a
// barrier, every exchange timed on its own; B from 8 KiB to --max-bytes by factors of 8.
// Printed per B: the slowest rank's median and minimum exchange time of each path and
// direct/staged (of the medians), after a check that each path delivered the neighbours' bytes.
// "on" needs an MPI that reads device memory: in the GPU kit, MPICH on the kit's CUDA-aware UCX
// (run_checks.sh, docs/gpu_kit.md); --direct 0 times the staged path alone. In a host build
// "staged" copies into and out of a second host buffer: the same code path.
//   mpiexec -n 2 bench_halo [--exchanges K] [--rounds R] [--max-bytes B] [--direct 0|1]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <memory>
#include <vector>

#include "bench_util.hpp"
#include "comm/communicators.hpp"
#include "comm/exchange.hpp"
#include "core/clock.hpp"
#include "core/mpi_util.hpp"
#include "core/types.hpp"

namespace {

using desync::Vector;

// The value element i of rank r's send buffer holds: the receiver knows what to expect.
KOKKOS_INLINE_FUNCTION double pattern(int r, std::int64_t i) { return 1e6 * r + static_cast<double>(i); }

// Elements of recv (n from the left neighbour's first half, n from the right's second half)
// that are not what the neighbours sent.
std::int64_t wrong_elements(const Vector& recv, std::int64_t n, int left, int right) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), recv);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    wrong += h(static_cast<std::size_t>(i)) != pattern(left, i);
    wrong += h(static_cast<std::size_t>(n + i)) != pattern(right, n + i);
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const int k = static_cast<int>(bench::arg(argc, argv, "--exchanges", 200));
    const int rounds = static_cast<int>(bench::arg(argc, argv, "--rounds", 5));
    const long long max_bytes = bench::arg(argc, argv, "--max-bytes", 8LL << 20);
    const bool direct = bench::arg(argc, argv, "--direct", 1) != 0;
    const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    CommConfig staged_opt, direct_opt;
    staged_opt.gpu_aware_mpi = GpuAwareMpi::off;
    direct_opt.gpu_aware_mpi = GpuAwareMpi::on;
    const Communicators staged_comms(MPI_COMM_WORLD, staged_opt);
    std::unique_ptr<Communicators> direct_comms;
    if (direct) direct_comms = std::make_unique<Communicators>(MPI_COMM_WORLD, direct_opt);
    if (rank == 0) {
      fmt::print("halo exchange of device buffers: {} ranks, ring, {} x {} exchanges per size and path\n", size, rounds, k);
      fmt::print("  MPI on device memory: {}\n", staged_comms.gpu_aware().detected);
      if (direct_comms && !direct_comms->gpu_aware().warning.empty())
        fmt::print("  note: {}\n", direct_comms->gpu_aware().warning);
      fmt::print("  {:>10} {:>14} {:>14} {:>14} {:>14} {:>14}\n", "bytes", "staged med us", "staged min us",
                 "direct med us", "direct min us", "direct/staged");
    }
    for (long long bytes = 8192; bytes <= max_bytes; bytes *= 8) {
      const std::int64_t n = bytes / 8;
      const auto b = static_cast<std::size_t>(n) * sizeof(double);
      Vector send("desync::bench::halo_send", 2 * static_cast<std::size_t>(n));
      Vector recv("desync::bench::halo_recv", 2 * static_cast<std::size_t>(n));
      const int me = rank;
      Kokkos::parallel_for("desync::bench::halo_fill", Kokkos::RangePolicy<ExecSpace>(0, 2 * n),
                           KOKKOS_LAMBDA(std::int64_t i) { send(static_cast<std::size_t>(i)) = pattern(me, i); });
      Kokkos::fence();
      // Tag 0 goes right (received from the left), tag 1 goes left: unique even for 2 ranks.
      const std::vector<Message> sends{{right, 0, b, 0}, {left, b, b, 1}};
      const std::vector<Message> recvs{{left, 0, b, 0}, {right, b, b, 1}};
      Exchange staged(staged_comms, Channel::bench, sends, recvs, staged_opt, BufferSpace::device);
      std::unique_ptr<Exchange> handed;
      if (direct_comms)
        handed = std::make_unique<Exchange>(*direct_comms, Channel::bench, sends, recvs, direct_opt, BufferSpace::device);

      // Each path once, into a cleared buffer, checked before it is timed.
      std::int64_t wrong[2] = {0, 0};
      Exchange* paths[2] = {&staged, handed.get()};
      for (int p = 0; p < 2; ++p) {
        if (!paths[p]) continue;
        Kokkos::deep_copy(recv, 0.0);
        paths[p]->post(send.data(), recv.data());
        paths[p]->complete();
        wrong[p] = wrong_elements(recv, n, left, right);
      }
      MPI_Allreduce(MPI_IN_PLACE, wrong, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
      if (wrong[0] + wrong[1] > 0) {
        if (rank == 0)
          fmt::print("  {:>10} check FAILED: staged {} and direct {} received elements differ from what was sent\n", bytes,
                     wrong[0], wrong[1]);
        status = 1;
        break;
      }

      std::vector<double> t[2];
      for (auto& v : t) v.reserve(static_cast<std::size_t>(k) * static_cast<std::size_t>(rounds));
      for (int r = 0; r < rounds; ++r)
        for (int p = 0; p < 2; ++p) {
          if (!paths[p]) continue;
          MPI_Barrier(MPI_COMM_WORLD);
          for (int i = 0; i < k; ++i) {
            const double t0 = now();
            paths[p]->post(send.data(), recv.data());
            paths[p]->complete();
            t[p].push_back(now() - t0);
          }
        }
      // Per rank, then the slowest rank's figure: an exchange is over when every rank is done.
      double s[4] = {bench::median(t[0]), *std::min_element(t[0].begin(), t[0].end()), 0.0, 0.0};
      if (handed) {
        s[2] = bench::median(t[1]);
        s[3] = *std::min_element(t[1].begin(), t[1].end());
      }
      MPI_Allreduce(MPI_IN_PLACE, s, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (rank == 0) {
        if (handed)
          fmt::print("  {:>10} {:>14.2f} {:>14.2f} {:>14.2f} {:>14.2f} {:>14.3f}\n", bytes, 1e6 * s[0], 1e6 * s[1], 1e6 * s[2],
                     1e6 * s[3], s[2] / s[0]);
        else
          fmt::print("  {:>10} {:>14.2f} {:>14.2f} {:>14} {:>14} {:>14}\n", bytes, 1e6 * s[0], 1e6 * s[1], "-", "-", "-");
      }
    }
    if (rank == 0 && status == 0) fmt::print("  check: every path delivered the neighbours' bytes\n");
  }
  MPI_Finalize();
  return status;
}
