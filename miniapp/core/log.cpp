#include "core/log.hpp"

namespace desync::log {
namespace {
int g_rank = 0;
}

void set_rank(int rank) { g_rank = rank; }
bool is_root() { return g_rank == 0; }

void error(const std::string& message) {
  if (is_root()) {
    fmt::print(stderr, "{}\n", message);
    std::fflush(stderr);
  }
}

}  // namespace desync::log
