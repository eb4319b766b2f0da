#pragma once
// Which malloc this process runs on. desync links jemalloc where it was found at build time
// (CMake option desync_WITH_JEMALLOC): `desync simulate` allocates a SimGrid kernel object per
// simulated operation and runs 1.5-1.7x faster on it (docs/method.md, "Simulator performance");
// a real run allocates only at set-up, so it is the same there either way.
#include <string>

namespace desync {

// "jemalloc 5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c" (also when preloaded), else
// "glibc malloc 2.36" or "system malloc".
std::string allocator_description();

}  // namespace desync
