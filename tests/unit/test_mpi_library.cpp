// The eager-limit record: the declared [comm] eager_limit is checked against the limits the MPI
// library reports (rendezvous protocol sizes do not count), and the probe finds the library's
// limits through MPI_T (Open MPI here: the btl_*_eager_limit variables).
#include <gtest/gtest.h>
#include <mpi.h>

#include "record/mpi_library.hpp"

namespace desync {
namespace {

TEST(MpiLibrary, DeclaredEagerLimitIsCheckedAgainstTheLibrary) {
  MpiLibraryRecord r;
  r.eager_cvars = {{"btl_self_eager_limit", 1024}, {"btl_vader_eager_limit", 4096}, {"btl_vader_rndv_eager_limit", 32768}};
  EXPECT_TRUE(eager_limit_mismatch(r, 0).empty()) << "nothing declared";
  EXPECT_TRUE(eager_limit_mismatch(r, 4096).empty());
  EXPECT_NE(eager_limit_mismatch(r, 32768).find("matches none"), std::string::npos) << "a rendezvous size is no eager limit";
  EXPECT_NE(eager_limit_mismatch(r, 8192).find("btl_vader_eager_limit = 4096"), std::string::npos);
  EXPECT_TRUE(eager_limit_mismatch(MpiLibraryRecord{}, 8192).empty()) << "a library that reports nothing: no claim";
}

TEST(MpiLibrary, ProbeReadsTheThreadLevelAndEagerLimits) {
  const MpiLibraryRecord r = probe_mpi_library(MPI_COMM_WORLD);
  EXPECT_EQ(r.thread_level.rfind("MPI_THREAD_", 0), 0u) << r.thread_level;
  EXPECT_FALSE(r.eager_cvars.empty()) << "Open MPI exposes its btl eager limits through MPI_T";
  for (const auto& [name, value] : r.eager_cvars) EXPECT_GE(value, 0) << name;
}

}  // namespace
}  // namespace desync
