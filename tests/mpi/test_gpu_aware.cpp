// [comm] gpu_aware_mpi (issue 17): how it resolves in this build, and that "off" really sends
// device-space buffers through the staging buffers (comm/staging.hpp) with the same bytes
// arriving. In a host build the default memory space is host memory, so "off" copies into a
// second host buffer: the code path a GPU build takes, checked here without a GPU.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

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
TEST(GpuAware, DirectRingDeliversEveryByte) { ring(GpuAwareMpi::on, false); }

}  // namespace
}  // namespace desync
