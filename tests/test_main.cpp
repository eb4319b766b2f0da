// One main for every gtest executable: MPI, then Kokkos, then gtest; finalized in reverse.
// Ranks other than 0 print nothing, so a failure is reported once; no collective runs inside
// listeners, so a failing rank cannot hang the others.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "core/log.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  // The comm layer's progress thread and parallel sends need MPI_THREAD_MULTIPLE; the tests of
  // those modes skip when the library gives less.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  desync::log::set_rank(rank);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    result = RUN_ALL_TESTS();
  }
  // Any rank's failure fails the test on every rank (exit codes reach mpiexec from all ranks).
  int worst = result;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
