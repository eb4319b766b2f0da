// [comm] gpu_aware_mpi (issue 17): how it resolves in this build, and that "off" really sends
// device-space buffers through the staging buffers (comm/staging.hpp) with the same bytes
// arriving. In a host build the default memory space is host memory, so "off" copies into a
// second host buffer: the code path a GPU build takes, checked here without a GPU.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/communicators.hpp"
#include "comm/exchange.hpp"
#include "comm/gpu_aware.hpp"
#include "config/config.hpp"
#include "core/mpi_util.hpp"
#include "core/types.hpp"
#include "kokkos_compat/staging_space.hpp"

namespace desync {
namespace {

TEST(GpuAware, ResolvesPerBuild) {
  const GpuAwareChoice a = choose_gpu_aware_mpi(GpuAwareMpi::automatic);
  const GpuAwareChoice on = choose_gpu_aware_mpi(GpuAwareMpi::on);
  const GpuAwareChoice off = choose_gpu_aware_mpi(GpuAwareMpi::off);
  EXPECT_TRUE(off.staged) << "off always stages";
  EXPECT_FALSE(on.staged) << "on never stages";
  EXPECT_FALSE(a.detected.empty());
  if (compat::default_memory_host_accessible) {
    EXPECT_FALSE(a.device_memory);
    EXPECT_FALSE(a.staged) << "auto: host memory needs no staging";
    EXPECT_TRUE(on.warning.empty());
    EXPECT_EQ(a.detected, "not asked (host build)");
  } else {
    EXPECT_TRUE(a.device_memory);
    std::string how;
    EXPECT_EQ(a.staged, mpi_reads_device_memory(how) != 1) << how;
  }
}

// A ring: every rank sends `n` bytes to rank + 1 from offset 8 of a device-space buffer and
// receives from rank - 1 at offset 16 of another, with fragments so that several MPI messages
// make up one message. Staged, the receive buffer must stay untouched until complete() (MPI
// writes the host copy), and hold the sender's bytes after it, in every iteration.
void ring(GpuAwareMpi mode, bool expect_staged) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  constexpr std::size_t n = 1000;
  CommConfig opt;
  opt.gpu_aware_mpi = mode;
  opt.fragment_bytes = 300;
  const Communicators comms(MPI_COMM_WORLD, opt);
  ASSERT_EQ(comms.gpu_aware().staged, expect_staged);
  Exchange x(comms, Channel::halo, {{next, 8, n, 0}}, {{prev, 16, n, 0}}, opt, BufferSpace::device);
  using Bytes = Kokkos::View<unsigned char*, MemSpace>;
  Bytes send("send", 8 + n), recv("recv", 16 + n);
  auto send_h = Kokkos::create_mirror_view(send);
  auto recv_h = Kokkos::create_mirror_view(recv);
  for (int it = 0; it < 3; ++it) {
    for (std::size_t i = 0; i < send_h.extent(0); ++i) send_h(i) = static_cast<unsigned char>(i * 7 + rank * 31 + it);
    Kokkos::deep_copy(send, send_h);
    Kokkos::deep_copy(recv, static_cast<unsigned char>(0xee));
    x.post(send.data(), recv.data());
    if (expect_staged) {
      // Whatever MPI has delivered so far went to the host copy, none to the device buffer.
      Kokkos::deep_copy(recv_h, recv);
      for (std::size_t i = 0; i < recv_h.extent(0); ++i) ASSERT_EQ(recv_h(i), 0xee) << "written before complete(), byte " << i;
    }
    x.complete();
    Kokkos::deep_copy(recv_h, recv);
    for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(recv_h(i), 0xee) << "outside the message, byte " << i;
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(recv_h(16 + i), static_cast<unsigned char>((8 + i) * 7 + prev * 31 + it)) << "iteration " << it << ", byte " << i;
  }
}

TEST(GpuAware, StagedRingDeliversEveryByte) { ring(GpuAwareMpi::off, true); }
// Direct hands MPI device pointers: only where the library reads device memory, or the buffers
// are host memory anyway (a host build). A GPU build against a library that cannot (Debian's MPICH
// and Open MPI: the GPU kit's first H100/H200 run crashed inside MPICH's memcpy) skips it.
bool direct_possible(std::string& why) {
  if (compat::default_memory_host_accessible) return true;
  std::string how;
  if (mpi_reads_device_memory(how) == 1) return true;
  why = "device buffers, and this MPI library does not read device memory (" + how + ")";
  return false;
}

TEST(GpuAware, DirectRingDeliversEveryByte) {
  std::string why;
  if (!direct_possible(why)) GTEST_SKIP() << why;
  ring(GpuAwareMpi::on, false);
}

// The collectives layer (comm/collectives.hpp) on device-space buffers, staged or direct: a
// pipelined broadcast from rank 0 in 3 parts, a reduction onto the last rank, an allreduce, a
// ring of isend/irecv, and their blocking forms. Staged, the device buffers that MPI writes keep
// their sentinel until wait_all() (MPI wrote the host mirrors), and hold the results after it.
void collectives(bool staged) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const int last = size - 1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
  constexpr std::int64_t n = 301;
  CommFamily world(MPI_COMM_WORLD, 3, 0, false);
  Collectives x(16, nullptr, staged);
  ASSERT_EQ(x.staged(), staged);
  Vector bc("bc", n), send("send", n), red("red", n), all("all", n), ring_in("ring_in", n);
  for (const Vector* v : {&bc, &send, &red, &all, &ring_in}) x.mirror(v->data(), v->size() * sizeof(double));
  auto h = Kokkos::create_mirror_view(send);
  const auto value = [](std::int64_t i, int r, int it) { return 0.5 * static_cast<double>(i) + 10.0 * r + 1000.0 * it; };
  double sum_r = 0;
  for (int r = 0; r < size; ++r) sum_r += 10.0 * r;
  for (int it = 0; it < 2; ++it) {
    for (std::int64_t i = 0; i < n; ++i) h(i) = value(i, rank, it);
    Kokkos::deep_copy(send, h);
    if (rank == 0) Kokkos::deep_copy(bc, send);
    else Kokkos::deep_copy(bc, -1.0);
    for (const Vector* v : {&red, &all, &ring_in}) Kokkos::deep_copy(*v, -1.0);
    const bool blocking = it == 1;
    if (blocking) {
      x.bcast(world, bc.data(), n, MPI_DOUBLE, 0);
      x.reduce(world, send.data(), red.data(), n, MPI_DOUBLE, last);
      x.allreduce(world, send.data(), all.data(), n, MPI_DOUBLE);
      if (size > 1 && rank % 2 == 0) {  // even ranks send first, odd ranks receive first
        x.send(world, send.data(), n, MPI_DOUBLE, next, 7);
        x.recv(world, ring_in.data(), n, MPI_DOUBLE, prev, 7);
      } else if (size > 1) {
        x.recv(world, ring_in.data(), n, MPI_DOUBLE, prev, 7);
        x.send(world, send.data(), n, MPI_DOUBLE, next, 7);
      }
    } else {
      for (int c = 0; c < 3; ++c) {
        const Part q = part_of(n, 3, c);
        x.ibcast(world, c, bc.data() + q.offset, q.count, MPI_DOUBLE, 0);
      }
      x.ireduce(world, 0, send.data(), red.data(), n, MPI_DOUBLE, last);
      x.iallreduce(world, 1, send.data(), all.data(), n, MPI_DOUBLE);
      if (size > 1) {
        x.irecv(world, 2, ring_in.data(), n, MPI_DOUBLE, prev, 7);
        x.isend(world, 2, send.data(), n, MPI_DOUBLE, next, 7);
      }
      if (staged) {
        MPI_Barrier(MPI_COMM_WORLD);  // every rank has posted; MPI may have delivered anything by now
        for (const Vector* v : {&all, &ring_in}) {
          auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, *v);
          EXPECT_EQ(got(0), -1.0) << "written before wait_all()";  // not ASSERT: wait_all() must still run
        }
      }
      x.wait_all();
    }
    SCOPED_TRACE(blocking ? "blocking" : "nonblocking");
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, bc);
    auto rd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, red);
    auto al = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, all);
    auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, ring_in);
    // Counted, not asserted: a rank that returned early would leave the others in a collective.
    int wrong_bc = 0, wrong_all = 0, wrong_red = 0, wrong_ring = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double total = size * (0.5 * static_cast<double>(i) + 1000.0 * it) + sum_r;
      wrong_bc += b(i) != value(i, 0, it);
      wrong_all += al(i) != total;
      wrong_red += rd(i) != (rank == last ? total : -1.0);  // not the root: untouched
      wrong_ring += size > 1 && ri(i) != value(i, prev, it);
    }
    EXPECT_EQ(wrong_bc, 0);
    EXPECT_EQ(wrong_all, 0);
    EXPECT_EQ(wrong_red, 0);
    EXPECT_EQ(wrong_ring, 0);
  }
}

TEST(GpuAware, StagedCollectivesDeliverEveryValue) { collectives(true); }
TEST(GpuAware, DirectCollectivesDeliverEveryValue) {
  std::string why;
  if (!direct_possible(why)) GTEST_SKIP() << why;
  collectives(false);
}

// An operation on a device buffer that was not registered is a programming error, named.
TEST(GpuAware, StagedCollectivesRefuseAnUnregisteredBuffer) {
  Collectives x(2, nullptr, true);
  CommFamily world(MPI_COMM_WORLD, 1, 0, false);
  Vector v("v", 4);
  EXPECT_THROW(x.allreduce(world, v.data(), v.data(), 4, MPI_DOUBLE), std::logic_error);
}

}  // namespace
}  // namespace desync
