#pragma once
// Kokkos' lifetime (initialize/finalize, as Kokkos::ScopeGuard) with its start-up messages kept
// off standard output. Kokkos' backends print warnings such as "OMP_PROC_BIND environment variable
// not set" with printf on stdout (3.4 and 4.x alike), which would corrupt machine-readable output
// (`desync plan --format json`) and repeat once per rank. Standard output is redirected to a
// temporary file while Kokkos starts; the captured text is returned for the caller to report
// once, on standard error.
#include <memory>
#include <string>

namespace Kokkos {
class ScopeGuard;
}

namespace desync::compat {

class Runtime {
 public:
  Runtime(int& argc, char** argv);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  const std::string& startup_messages() const { return messages_; }

 private:
  std::unique_ptr<Kokkos::ScopeGuard> guard_;
  std::string messages_;
};

}  // namespace desync::compat
