#include "kokkos_compat/runtime.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <iostream>

namespace desync::compat {
namespace {

// Redirects file descriptor 1 into a temporary file for its lifetime; text() reads it back.
class StdoutCapture {
 public:
  StdoutCapture() {
    std::fflush(stdout);
    std::cout.flush();
    file_ = std::tmpfile();
    if (!file_) return;
    saved_ = ::dup(1);
    if (saved_ < 0 || ::dup2(::fileno(file_), 1) < 0) restore();
  }
  ~StdoutCapture() { restore(); }
  std::string text() {
    restore();
    std::string s;
    if (!file_) return s;
    std::rewind(file_);
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) s.append(buf, n);
    std::fclose(file_);
    file_ = nullptr;
    return s;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved_, 1);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace

Runtime::Runtime(int& argc, char** argv) {
  StdoutCapture capture;
  guard_ = std::make_unique<Kokkos::ScopeGuard>(argc, argv);
  messages_ = capture.text();
}

Runtime::~Runtime() = default;

}  // namespace desync::compat
