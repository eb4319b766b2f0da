// The eager-limit record: the declared [comm] eager_limit is checked against the limits the MPI
// library reports (rendezvous protocol sizes do not count), and the probe finds the library's
// limits through MPI_T (Open MPI: the btl_*_eager_limit variables; MPICH: MPIR_CVAR_*EAGER*, whose
// negative sentinels are kept apart).
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
  EXPECT_NE(eager_limit_mismatch(r, 8192).find("(e.g. OMPI_MCA_btl_vader_eager_limit)"), std::string::npos)
      << "Open MPI's variable of the transport between ranks";
  EXPECT_NE(eager_limit_mismatch(r, 1024).find("matches none"), std::string::npos) << "btl_self: a rank's messages to itself";
  MpiLibraryRecord m;  // MPICH names its cvars as the environment variables that set them
  m.eager_cvars = {{"MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE", 131072}};
  EXPECT_NE(eager_limit_mismatch(m, 8192).find("(e.g. MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE)"), std::string::npos);
  EXPECT_TRUE(eager_limit_mismatch(MpiLibraryRecord{}, 8192).empty()) << "a library that reports nothing: no claim";
}

TEST(MpiLibrary, ProbeReadsTheThreadLevelAndEagerLimits) {
  const MpiLibraryRecord r = probe_mpi_library(MPI_COMM_WORLD);
  EXPECT_EQ(r.thread_level.rfind("MPI_THREAD_", 0), 0u) << r.thread_level;
  EXPECT_FALSE(r.eager_cvars.empty()) << "Open MPI (btl_*_eager_limit) and MPICH (MPIR_CVAR_*EAGER*) expose eager limits";
  for (const auto& [name, value] : r.eager_cvars) EXPECT_GE(value, 0) << name;
  for (const auto& [name, value] : r.eager_cvars) EXPECT_EQ(name.find("CTXID"), std::string::npos) << "not a message limit";
  const std::string family = mpi_family();
  EXPECT_TRUE(family == "openmpi" || family == "mpich" || family == "other") << family;
  // The launcher's family as a bare word (tests/CMakeLists.txt): a quoted define does not survive
  // nvcc_wrapper --host-only (cmake/DesyncHostOnly.cmake).
#define DESYNC_STRING_OF(x) #x
#define DESYNC_STRING(x) DESYNC_STRING_OF(x)
  const std::string launcher = DESYNC_STRING(DESYNC_TEST_MPI_FAMILY);
  if (launcher != "other") {
    EXPECT_EQ(family, launcher) << "launcher and library disagree";
  }
  EXPECT_NE(binding_hint().find("bind"), std::string::npos);
  for (const auto& [name, value] : r.deferred_cvars) {
    EXPECT_LT(value, 0) << name;
    EXPECT_NE(r.text.find(name + " = " + std::to_string(value) + " (set by the library at run time)"), std::string::npos);
  }
}

}  // namespace
}  // namespace desync
