// Committing a result file: room checked first, written as FILE.<tag>.tmp, flushed, read back, renamed
// (io/output_file.hpp, commit_output). Collective over the writers' communicator.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/disk_space.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/mpi_util.hpp"
#include "core/stop_request.hpp"
#include "io/h5.hpp"
#include "io/output_file.hpp"

namespace desync {

// Rank 0, after every rank closed the file: data on disk, and the file opens with a plain serial
// reader. Returns the problem, empty if none.
std::string settle_and_read_back(const std::string& tmp) {
  const int fd = ::open(tmp.c_str(), O_RDONLY);
  if (fd < 0) return std::string("reopening for fsync: ") + std::strerror(errno);
  const bool synced = ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!synced) return std::string("fsync: ") + std::strerror(err);
  const hid_t f = H5Fopen(tmp.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return "the written file does not open: " + h5::last_error();
  const htri_t has = H5Aexists(f, "format");
  H5Fclose(f);
  if (has <= 0) return "the written file has no format attribute";
  return {};
}

// Bytes the file will take: every rank's timeline and per-rank rows, the texts, and an allowance
// for HDF5's metadata and the small datasets (a file's metadata is about 30 KiB, docs/method.md
// section 32; the deck-based estimate of the preflight is the accurate one). Collective.
double expected_file_bytes(const RunRecord& r, MPI_Comm comm) {
  double mine = 16.0 * 1024.0;  // per process: its rows of the small per-rank datasets
  for (const RankRecord& x : r.rows) {
    // What [record] window and stride keep: the rows, and the events posted in them (about the
    // same share of the messages and collective parts).
    const Timeline& tl = x.result->timeline;
    const KeptRows kept = kept_rows_for(tl, r.cfg.record);
    const double rows = static_cast<double>(kept.all ? tl.iterations() : static_cast<std::int64_t>(kept.row.size()));
    const double share = tl.iterations() > 0 ? rows / static_cast<double>(tl.iterations()) : 1.0;
    mine += 8.0 * rows * tl.events();
    // An event's fields in /messages and /collectives (commands/output_estimate.cpp).
    if (x.result->messages) mine += 37.0 * share * static_cast<double>(x.result->messages->count());
    if (x.result->collectives) mine += 45.0 * share * static_cast<double>(x.result->collectives->count());
  }
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_SUM, comm);
  // /provenance/hwloc_xml: fixed-length strings as wide as the longest.
  std::size_t xml_width = 0;
  for (const std::string& x : r.rows.front().topo->hwloc_xml) xml_width = std::max(xml_width, x.size());
  mine += static_cast<double>(xml_width * r.rows.front().topo->hwloc_xml.size());
  if (r.cfg.noise.table) mine += static_cast<double>(r.cfg.noise.table->text.size());
  return mine + static_cast<double>(r.cfg.deck_text.size() + r.cfg.resolved_toml.size() + r.prov.environment.size() +
                                    r.prov.kokkos_configuration.size()) + 128.0 * 1024.0;
}

// A full file system is found before HDF5 writes anything: HDF5 does not recover cleanly from a
// write that fails half-way (a flush error leaves a file object that crashes MPI_Finalize, and a
// collective write can hang ranks that did not see the error).
std::string check_room(const std::string& path, double need) {
  const std::string dir = directory_of(path);
  const double room = free_bytes(dir);
  if (room < 0 || room >= need) return {};
  return fmt::format("the file system of {} has {} free, the result needs about {}", dir, format_bytes(room),
                     format_bytes(need));
}

void sync_directory_of(const std::string& path) {
  // Makes a rename or a new link durable (best effort: not every file system allows it).
  const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string run_file_tag(MPI_Comm comm) {
  std::string tag;
  if (comm_rank(comm) == 0) tag = fmt::format("{:x}{:08x}", static_cast<unsigned>(::getpid()), std::random_device{}());
  bcast_string(tag, 0, comm);
  return tag;
}

std::string temporary_output_path(const std::string& path, MPI_Comm comm) { return path + "." + run_file_tag(comm) + ".tmp"; }

namespace {
// rename() that never replaces an existing `to` (EEXIST): renameat2's RENAME_NOREPLACE where the
// file system has it, else a hard link (which fails on an existing name) and an unlink.
int rename_no_replace(const std::string& from, const std::string& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}
}  // namespace

void commit_output(const std::string& path, const std::string& tmp, const RunRecord& rec, bool replace, MPI_Comm comm) {
  const int rank = comm_rank(comm);
  const double need = expected_file_bytes(rec, comm);
  std::string failure;
  if (rank == 0) failure = check_room(path, need);
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw OutputError("writing " + path + " failed (" + failure + "); no file was written");
  set_pending_output(tmp);
  try {
    write_output(tmp, rec, comm);
  } catch (const h5::Error& e) {
    failure = e.what();  // the same on every rank
  }
  bool kept = false;  // the result is complete under tmp, but path appeared during the run
  if (failure.empty()) {
    std::string mine;
    if (rank == 0) {
      mine = settle_and_read_back(tmp);
      if (mine.empty()) {
        if (replace ? ::rename(tmp.c_str(), path.c_str()) != 0 : rename_no_replace(tmp, path) != 0) {
          kept = !replace && errno == EEXIST;
          mine = kept ? path + " appeared during the run (another run writing the same file?) and was not replaced"
                      : std::string("renaming to ") + path + ": " + std::strerror(errno);
        }
      }
    }
    bcast_string(mine, 0, comm);
    failure = mine;
    int k = kept ? 1 : 0;
    MPI_Bcast(&k, 1, MPI_INT, 0, comm);
    kept = k == 1;
  }
  if (!failure.empty()) {
    MPI_Barrier(comm);  // every rank has closed its handles
    set_pending_output("");
    if (kept) {
      if (rank == 0) sync_directory_of(tmp);
      throw OutputError("writing " + path + " failed (" + failure + "); this run's complete result is " + tmp +
                        ": rename it, or run with --force to replace");
    }
    if (rank == 0) ::unlink(tmp.c_str());
    throw OutputError("writing " + path + " failed (" + failure + "); no file was left");
  }
  set_pending_output("");
  if (rank == 0) sync_directory_of(path);
}

}  // namespace desync
