// The environment record of a result file (/provenance environment, placement_environment()) keeps
// the variables that steer placement and MPI but drops those that carry addresses or secrets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "record/provenance.hpp"

namespace desync {
namespace {

TEST(ProvenancePrivacy, PlacementVariablesAreKept) {
  EXPECT_FALSE(environment_entry_is_private("OMP_NUM_THREADS", "4"));
  EXPECT_FALSE(environment_entry_is_private("OMP_PLACES", "{0}:4:2"));
  EXPECT_FALSE(environment_entry_is_private("OMP_PROC_BIND", "close"));
  EXPECT_FALSE(environment_entry_is_private("KOKKOS_NUM_THREADS", "8"));
  EXPECT_FALSE(environment_entry_is_private("OMPI_MCA_btl", "self,vader,tcp"));
  EXPECT_FALSE(environment_entry_is_private("OMPI_MCA_rmaps_base_oversubscribe", "1"));
  EXPECT_FALSE(environment_entry_is_private("OMPI_MCA_mpi_keep_fqdn_hostnames", "1"));
  EXPECT_FALSE(environment_entry_is_private("PMIX_SECURITY_MODE", "native"));  // SECURITY is not a URI
  EXPECT_FALSE(environment_entry_is_private("UCX_IB_PKEY", "0x8001"));         // partition key: a setting
  EXPECT_FALSE(environment_entry_is_private("I_MPI_PIN_DOMAIN", "core"));
  EXPECT_FALSE(environment_entry_is_private("KMP_AFFINITY", "granularity=fine,compact,1,0"));
  EXPECT_FALSE(environment_entry_is_private("OMPI_MCA_btl_tcp_if_include", "10.0.0.0/8"));  // no port
  EXPECT_FALSE(environment_entry_is_private("MPICH_VERSION_NOTE", "4.0.2.1:ok"));  // five numbers
}

TEST(ProvenancePrivacy, OpenMpiAndPmixContactAddressesAreDropped) {
  EXPECT_TRUE(environment_entry_is_private("OMPI_MCA_orte_hnp_uri", "1853423616.0;tcp://10.0.0.5,192.168.1.7:41237"));
  EXPECT_TRUE(environment_entry_is_private("OMPI_MCA_orte_local_daemon_uri", "1853423616.1;tcp://10.0.0.5:52311"));
  EXPECT_TRUE(environment_entry_is_private("OMPI_MCA_orte_parent_uri", "x"));
  EXPECT_TRUE(environment_entry_is_private("PMIX_SERVER_URI", "pmix-server.1234;tcp4://127.0.0.1:36721"));
  EXPECT_TRUE(environment_entry_is_private("PMIX_SERVER_URI2", "prterun.host.1234@0.0;tcp4://127.0.0.1:36721"));
  EXPECT_TRUE(environment_entry_is_private("PMIX_SERVER_URI41", "anything"));
  EXPECT_TRUE(environment_entry_is_private("ompi_mca_orte_hnp_uri", "anything"));  // names: case-insensitive
  EXPECT_TRUE(environment_entry_is_private("OMPI_MCA_orte_precondition_transports", "0123456789abcdef-fedcba9876543210"));
}

TEST(ProvenancePrivacy, SecretsByNameAreDropped) {
  for (const char* name : {"OMPI_API_TOKEN", "UCX_SECRET", "I_MPI_PASSWORD", "MPICH_PASSWD", "KOKKOS_LICENSE_KEY",
                           "OMPI_MCA_sec_munge_key", "OMP_APIKEY", "UCX_CREDENTIALS", "I_MPI_AUTH_METHOD",
                           "OMPI_COOKIE", "ompi_mca_something_password"})
    EXPECT_TRUE(environment_entry_is_private(name, "v")) << name;
}

TEST(ProvenancePrivacy, AddressesByValueAreDropped) {
  EXPECT_TRUE(environment_entry_is_private("OMPI_MCA_some_contact", "tcp://node17:4711"));
  EXPECT_TRUE(environment_entry_is_private("UCX_SOCKADDR", "10.1.2.3:4711"));
  EXPECT_TRUE(environment_entry_is_private("I_MPI_HYDRA_SERVER", "host;192.168.0.10:22,other"));
  EXPECT_TRUE(environment_entry_is_private("MPICH_SERVER", "[fe80::1]:4711"));
  EXPECT_TRUE(environment_entry_is_private("KOKKOS_TOOLS_URL", "https://example.org/x"));
}

TEST(ProvenancePrivacy, PlacementEnvironmentLeavesPrivateEntriesOut) {
  ASSERT_EQ(setenv("OMP_DESYNC_TEST_KEEP", "close", 1), 0);
  // Not Open MPI's own OMPI_MCA_orte_hnp_uri: mpiexec may have set that one for this process.
  ASSERT_EQ(setenv("OMPI_MCA_desync_test_hnp_uri", "1.0;tcp://10.9.8.7:4711", 1), 0);
  ASSERT_EQ(setenv("UCX_DESYNC_TEST_TOKEN", "s3cr3t", 1), 0);
  ASSERT_EQ(setenv("OMPI_DESYNC_TEST_ADDR", "10.9.8.7:4711", 1), 0);
  const std::string env = placement_environment();
  EXPECT_NE(env.find("OMP_DESYNC_TEST_KEEP=close\n"), std::string::npos) << env;
  EXPECT_EQ(env.find("desync_test_hnp_uri"), std::string::npos) << env;
  EXPECT_EQ(env.find("s3cr3t"), std::string::npos) << env;
  EXPECT_EQ(env.find("10.9.8.7"), std::string::npos) << env;
  for (const char* n : {"OMP_DESYNC_TEST_KEEP", "OMPI_MCA_desync_test_hnp_uri", "UCX_DESYNC_TEST_TOKEN", "OMPI_DESYNC_TEST_ADDR"})
    unsetenv(n);
}

}  // namespace
}  // namespace desync
