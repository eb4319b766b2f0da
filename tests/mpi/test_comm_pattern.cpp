// The neighbour pattern: partner lists for open and periodic boundaries and several offset sets,
// and a real exchange at the current rank count in which every message arrives stamped by the
// expected sender and iteration.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "workloads/triad/neighbour_exchange.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "core/mpi_util.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {
namespace {

using Offsets = std::vector<std::int64_t>;

TEST(Partners, OpenBoundaryDropsOutsideRanks) {
  const Partners p0 = neighbour_partners(0, 4, {1, -1}, Boundary::open);
  EXPECT_EQ(p0.send_to, (std::vector<int>{1, -1}));
  EXPECT_EQ(p0.recv_from, (std::vector<int>{-1, 1}));
  const Partners p3 = neighbour_partners(3, 4, {1, -1, -2}, Boundary::open);
  EXPECT_EQ(p3.send_to, (std::vector<int>{-1, 2, 1}));
  EXPECT_EQ(p3.recv_from, (std::vector<int>{2, -1, -1}));
}

TEST(Partners, PeriodicBoundaryWraps) {
  const Partners p = neighbour_partners(0, 4, {1, -1, -2, 5}, Boundary::periodic);
  EXPECT_EQ(p.send_to, (std::vector<int>{1, 3, 2, 1}));
  EXPECT_EQ(p.recv_from, (std::vector<int>{3, 1, 2, 3}));
  const Partners one = neighbour_partners(0, 1, {1, -1}, Boundary::periodic);
  EXPECT_EQ(one.send_to, (std::vector<int>{0, 0}));
}

struct Pattern {
  Offsets offsets;
  Boundary boundary;
};

class Exchange : public ::testing::TestWithParam<Pattern> {};

TEST_P(Exchange, SendListsMatchReceiveListsAndStampsArrive) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  TriadConfig cfg;
  cfg.offsets = GetParam().offsets;
  cfg.boundary = GetParam().boundary;
  cfg.message_bytes = 64;
  const Communicators comms(MPI_COMM_WORLD, 1);
  NeighbourExchange x(comms, cfg, CommConfig{});
  const std::size_t k = cfg.offsets.size();

  // Globally: if r sends to s for offset i, s receives from r for offset i, and vice versa.
  std::vector<int> send(k * size), recv(k * size);
  MPI_Allgather(x.partners().send_to.data(), static_cast<int>(k), MPI_INT, send.data(), static_cast<int>(k), MPI_INT,
                MPI_COMM_WORLD);
  MPI_Allgather(x.partners().recv_from.data(), static_cast<int>(k), MPI_INT, recv.data(), static_cast<int>(k),
                MPI_INT, MPI_COMM_WORLD);
  int expected_receives = 0;
  for (int r = 0; r < size; ++r)
    for (std::size_t i = 0; i < k; ++i) {
      const int s = send[r * k + i];
      if (s >= 0) {
        EXPECT_EQ(recv[s * k + i], r) << "rank " << r << " offset " << cfg.offsets[i];
      }
      const int f = recv[r * k + i];
      if (f >= 0) {
        EXPECT_EQ(send[f * k + i], r);
      }
      const std::int64_t d = cfg.offsets[i];
      const bool inside = r - d >= 0 && r - d < size;
      if (r == rank && (inside || cfg.boundary == Boundary::periodic)) ++expected_receives;
      if (r == rank) {
        EXPECT_EQ(f >= 0, inside || cfg.boundary == Boundary::periodic);
      }
    }

  constexpr int iterations = 6;
  for (int it = 0; it < iterations; ++it) {
    x.post(it);
    x.wait();
  }
  EXPECT_EQ(x.stamp_errors(), 0);
  EXPECT_EQ(x.messages_checked(), iterations * expected_receives);
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, Exchange,
    ::testing::Values(Pattern{{1, -1}, Boundary::open}, Pattern{{1, -1}, Boundary::periodic},
                      Pattern{{1, -1, -2}, Boundary::open}, Pattern{{1, -1, -2}, Boundary::periodic},
                      Pattern{{1, 2, 3, -1, -2, -3}, Boundary::open}, Pattern{{2}, Boundary::periodic},
                      Pattern{{-3, 5}, Boundary::periodic}));

// A stamp at the start of every piece that holds one and at the end, none overlapping: a piece
// that did not arrive fails its message, not only a missing first piece.
TEST(Exchange, StampsAtEveryPieceAndTheEnd) {
  using V = std::vector<std::size_t>;
  EXPECT_EQ(triad_stamp_positions(10, 0), V{});          // shorter than a stamp
  EXPECT_EQ(triad_stamp_positions(24, 0), V{0});
  EXPECT_EQ(triad_stamp_positions(30, 0), V{0});         // the end would overlap the start
  EXPECT_EQ(triad_stamp_positions(100, 0), (V{0, 76}));  // whole: start and end
  EXPECT_EQ(triad_stamp_positions(100, 40), (V{0, 40, 76}));
  EXPECT_EQ(triad_stamp_positions(100, 60), (V{0, 60}));  // 76 would overlap 60..84
  EXPECT_EQ(triad_stamp_positions(1000, 1), (V{0, 976}));  // pieces shorter than a stamp
  const V many = triad_stamp_positions(1 << 20, 4096);
  ASSERT_EQ(many.size(), 256u + 1u);
  for (std::size_t k = 0; k < 256; ++k) EXPECT_EQ(many[k], k * 4096);
  EXPECT_EQ(many.back(), (1u << 20) - 24);
}

TEST(Exchange, ZeroByteMessagesStillComplete) {
  TriadConfig cfg;
  cfg.message_bytes = 0;
  cfg.boundary = Boundary::periodic;
  const Communicators comms(MPI_COMM_WORLD, 1);
  NeighbourExchange x(comms, cfg, CommConfig{});
  x.post(0);
  x.wait();
  EXPECT_EQ(x.messages_checked(), 0);  // too small for a stamp: nothing to check, nothing wrong
  EXPECT_EQ(x.stamp_errors(), 0);
}

}  // namespace
}  // namespace desync
