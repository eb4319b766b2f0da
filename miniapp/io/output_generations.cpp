#include "io/output_generations.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/mpi_util.hpp"
#include "io/h5.hpp"

namespace desync {
namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Fault injection for the tests (tests/cli/robustness.py, kill_in_flush): seconds to sleep after
// the generation's file is written and before it is closed, so that a test can kill a rank
// inside a flush. Read once; unset in every normal run.
double pause_in_flush() {
  static const double s = [] {
    const char* v = std::getenv("DESYNC_TEST_PAUSE_IN_FLUSH");
    return v ? std::atof(v) : 0.0;
  }();
  return s;
}

}  // namespace

OutputGenerations::OutputGenerations(std::string path, MPI_Comm comm)
    : path_(std::move(path)), link_(link_for(path_)), comm_(comm) {}

std::string OutputGenerations::write(const RunRecord& rec) {
  const int rank = comm_rank(comm_);
  const std::string gen = fmt::format("{}.{}", link_, flushes_ % 2);
  std::string failure;
  const double need = expected_file_bytes(rec, comm_);
  if (rank == 0) failure = check_room(gen, need);
  bcast_string(failure, 0, comm_);
  if (!failure.empty()) return failure;
  try {
    write_output(gen, rec, comm_);
  } catch (const h5::Error& e) {
    return e.what();  // the same on every rank
  }
  if (pause_in_flush() > 0) std::this_thread::sleep_for(std::chrono::duration<double>(pause_in_flush()));
  if (rank == 0) {
    failure = settle_and_read_back(gen);
    if (failure.empty()) {
      // A new link under a temporary name, renamed over the old one: readers see the old or the
      // new generation, never none. Relative, so the folder can be moved.
      const std::string tmp = link_ + ".new";
      ::unlink(tmp.c_str());
      if (::symlink(base_name(gen).c_str(), tmp.c_str()) != 0 || ::rename(tmp.c_str(), link_.c_str()) != 0)
        failure = std::string("linking ") + link_ + ": " + std::strerror(errno);
      else
        sync_directory_of(link_);
    }
  }
  bcast_string(failure, 0, comm_);
  if (failure.empty()) ++flushes_;
  return failure;
}

void OutputGenerations::remove() {
  MPI_Barrier(comm_);  // every rank is done with the files
  if (comm_rank(comm_) != 0) return;
  for (const std::string& p : {link_, link_ + ".0", link_ + ".1", link_ + ".new"}) ::unlink(p.c_str());
}

}  // namespace desync
