// Compiled with the comm layer's include paths (tests/layers/CMakeLists.txt): a workload's header
// lives in a layer above comm, so this include must not compile.
#include "workloads/spmv/spmv.hpp"

int desync_layer_probe_upward() { return 0; }
