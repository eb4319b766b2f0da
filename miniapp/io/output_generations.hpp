#pragma once
// What a run has done, on disk while it runs ([record] flush_seconds): each flush writes a
// complete desync file of the iterations done so far, marked incomplete (root attributes
// complete = 0, flushed = 1), into one of two generation files of its own, OUT.partial.TAG.0 and
// OUT.partial.TAG.1 (TAG: rank 0's process id and a random number, one per run, so that two runs
// to one file never write into each other's generations), alternately; once it is closed,
// synced and read back, the link OUT.partial is switched to it (rename of a new link: atomic).
// The generation being written is never the one the link names, so a rank or node killed at any
// moment, even inside a flush, leaves OUT.partial naming a complete file (docs/method.md,
// "Results on disk while a run runs").
//
// HDF5 files written in parallel are not crash-consistent while open (a killed writer can leave
// the superblock or B-trees half-updated), which is why a flush never writes into the file the
// link names. At the normal end the result is committed to OUT as always and the generations
// are removed; if that commit fails, they stay.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "io/output_file.hpp"

namespace desync {

class OutputGenerations {
 public:
  // `path`: the run's output file (OUT); comm: every rank of the run.
  OutputGenerations(std::string path, MPI_Comm comm);

  // Collective: writes rec as the next generation and links OUT.partial to it. Returns "" or why
  // it failed (the same on every rank); a failed flush leaves the link on the previous one.
  std::string write(const RunRecord& rec);

  // Collective: removes this run's generations, the link where it names one of them or the
  // generation a killed earlier run left it naming (replaced with --force), and that run's two
  // generations; a link another run switched meanwhile stays, with its files (after the final
  // commit).
  void remove();

  const std::string& link() const { return link_; }
  std::int64_t flushes() const { return flushes_; }

  // OUT.partial for an output path (the preflight refuses to overwrite one without --force).
  static std::string link_for(const std::string& path) { return path + ".partial"; }

 private:
  std::string generation(int k) const { return link_ + "." + tag_ + "." + std::to_string(k); }

  std::string path_, link_;
  MPI_Comm comm_;
  std::string tag_;    // this run's part of its generations' names (run_file_tag)
  std::string stale_;  // what the link named when the run started (a killed earlier run's), or ""
  std::int64_t flushes_ = 0;
};

}  // namespace desync
