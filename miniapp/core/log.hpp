#pragma once
// Rank-0 console output. Every rank may call these; only rank 0 prints.
#include <fmt/core.h>

#include <cstdio>

namespace desync::log {

void set_rank(int rank);
bool is_root();

template <class... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (is_root()) {
    fmt::print(stdout, f, std::forward<Args>(args)...);
    std::fflush(stdout);
  }
}

template <class... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  if (is_root()) {
    fmt::print(stderr, "desync: warning: ");
    fmt::print(stderr, f, std::forward<Args>(args)...);
    std::fflush(stderr);
  }
}

void error(const std::string& message);

}  // namespace desync::log
