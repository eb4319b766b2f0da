#pragma once
// Fault injection for the tests (tests/cli/CMakeLists.txt, verify_lost_*): with
// DESYNC_TEST_DROP_LAST_DELIVERY set, a workload runs its checked (last) iteration without the
// delivery its check depends on (its collectives, its halo exchange, or the whole iteration where
// the deliveries are woven into it), its phases still marked, so that the check must fail;
// without the poisoned start of that iteration (docs/method.md section 7) an earlier iteration's
// equal values would pass. Read once, chosen at set-up through the body for the checked
// iteration of ExperimentLoop::run_checked (or of each cell: run_cells_checked); unset in every
// normal run.
#include <cstdlib>

namespace desync {

inline bool test_drop_last_delivery() {
  static const bool on = std::getenv("DESYNC_TEST_DROP_LAST_DELIVERY") != nullptr;
  return on;
}

}  // namespace desync
