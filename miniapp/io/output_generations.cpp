#include "io/output_generations.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

#include "core/mpi_util.hpp"
#include "io/h5.hpp"

namespace desync {
namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Fault injection for the tests (tests/cli/robustness.py, kill_in_flush): seconds the ranks hold
// the generation's file open, written but not closed, so that a test can kill a rank inside a
// flush. Read once; unset in every normal run.
double pause_in_flush() {
  static const double s = [] {
    const char* v = std::getenv("DESYNC_TEST_PAUSE_IN_FLUSH");
    return v ? std::atof(v) : 0.0;
  }();
  return s;
}

}  // namespace

// The link's target (relative to its folder), or "" when there is no link.
std::string link_target(const std::string& link) {
  char target[4096];
  const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

OutputGenerations::OutputGenerations(std::string path, MPI_Comm comm)
    : path_(std::move(path)), link_(link_for(path_)), comm_(comm) {
  if (comm_rank(comm_) == 0) {
    tag_ = fmt::format("{:x}{:08x}", static_cast<unsigned>(::getpid()), std::random_device{}());
    stale_ = link_target(link_);
  }
  bcast_string(tag_, 0, comm_);
  bcast_string(stale_, 0, comm_);
}

std::string OutputGenerations::write(const RunRecord& rec) {
  const int rank = comm_rank(comm_);
  const std::string gen = generation(static_cast<int>(flushes_ % 2));
  std::string failure;
  const double need = expected_file_bytes(rec, comm_);
  if (rank == 0) failure = check_room(gen, need);
  bcast_string(failure, 0, comm_);
  if (!failure.empty()) return failure;
  try {
    write_output(gen, rec, comm_, pause_in_flush());
  } catch (const h5::Error& e) {
    return e.what();  // the same on every rank
  }
  if (rank == 0) {
    failure = settle_and_read_back(gen);
    if (failure.empty()) {
      // A new link under a temporary name, renamed over the old one: readers see the old or the
      // new generation, never none. Relative, so the folder can be moved.
      const std::string tmp = link_ + "." + tag_ + ".new";
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
  const std::string now = link_target(link_);
  const std::string mine0 = base_name(generation(0)), mine1 = base_name(generation(1));
  if (!now.empty() && (now == mine0 || now == mine1 || now == stale_)) ::unlink(link_.c_str());
  for (const std::string& p : {generation(0), generation(1), link_ + "." + tag_ + ".new"}) ::unlink(p.c_str());
  // The killed run's generations the link named at the start (this run was told to replace
  // them): the one named and its sibling (same name, the other last digit).
  if (!stale_.empty() && stale_.find('/') == std::string::npos && (now.empty() || now == stale_ || now == mine0 || now == mine1)) {
    std::string sibling = stale_;
    if (!sibling.empty() && (sibling.back() == '0' || sibling.back() == '1')) sibling.back() = sibling.back() == '0' ? '1' : '0';
    for (const std::string& p : {stale_, sibling}) ::unlink((folder_of(link_) + p).c_str());
  }
}

}  // namespace desync
