// Compiled with the comm layer's include paths (tests/layers/CMakeLists.txt): a header of a layer
// below comm is visible. The control for probe_upward.cpp, so that its failure means the rule.
#include "record/timeline.hpp"

int desync_layer_probe_lower() { return 0; }
