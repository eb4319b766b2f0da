#include "io/output_generations.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/disk_space.hpp"
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

// The link's target (relative to its folder), or "" when there is no link.
std::string link_target(const std::string& link) {
  char target[4096];
  const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

OutputGenerations::OutputGenerations(std::string path, MPI_Comm comm)
    : path_(std::move(path)), link_(link_for(path_)), comm_(comm), tag_(run_file_tag(comm)) {
  if (comm_rank(comm_) == 0) stale_ = link_target(link_);
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
  // The link is this run's to remove where it names one of its generations or still the one a
  // killed earlier run left (which this run was told to replace); else another run switched it.
  const std::string now = link_target(link_);
  const bool ours = now == base_name(generation(0)) || now == base_name(generation(1)) || (!now.empty() && now == stale_);
  if (ours) ::unlink(link_.c_str());
  for (const std::string& p : {generation(0), generation(1), link_ + "." + tag_ + ".new"}) ::unlink(p.c_str());
  // That earlier run's generations: the one the link named and its sibling (the other last digit).
  if (!stale_.empty() && stale_.find('/') == std::string::npos && (now.empty() || ours)) {
    std::string sibling = stale_;
    if (sibling.back() == '0' || sibling.back() == '1') sibling.back() = sibling.back() == '0' ? '1' : '0';
    for (const std::string& p : {stale_, sibling}) ::unlink((directory_of(link_) + "/" + p).c_str());
  }
}

}  // namespace desync
