#include "commands/preflight.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>

#include "core/disk_space.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/mpi_util.hpp"
#include "core/small_file.hpp"
#include "io/output_generations.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace fs = std::filesystem;

namespace {

// Every rank throws the message of the lowest rank that found a problem.
void agree_or_throw(const std::string& mine, MPI_Comm comm) {
  if (const std::string msg = first_message(mine, comm); !msg.empty()) throw DeckError(msg);
}

std::string probe(const Config& cfg, const OutputTarget& out, double min_bytes) {
  const auto fail = [&](const std::string& why) { return fmt::format("{}: error: output file \"{}\": {}", out.where, out.path, why); };
  if (out.path.empty()) return fail("empty name");
  std::error_code ec;
  const fs::path p(out.path);
  const fs::file_status st = fs::status(p, ec);
  if (fs::is_directory(st)) return fail("is a directory; give a file name such as " + (p / "run.h5").string());
  // A symbolic link whose target does not exist is still a name someone made: replaced only on request.
  if (fs::is_symlink(fs::symlink_status(p, ec)) && !fs::exists(st) && !out.overwrite)
    return fail("exists (a symbolic link to a missing file); pass --force (or set [run] overwrite = true) to replace it, "
                "or choose another name with -o");
  if (fs::exists(st)) {
    if (fs::equivalent(p, fs::path(cfg.deck_path), ec)) return fail("is the deck itself; choose another name with -o");
    if (!fs::is_regular_file(st)) return fail("exists and is not a regular file");
    if (!out.overwrite)
      return fail("exists; pass --force (or set [run] overwrite = true) to replace it, or choose another name with -o");
  }
  // A killed run's last flush (io/output_generations.hpp) is someone's only copy of that run.
  const std::string partial = OutputGenerations::link_for(out.path);
  if (fs::exists(fs::symlink_status(partial, ec)) && !out.overwrite)
    return fail(partial + " exists: what an earlier run to this file had done when it was killed. Open it (desync-view "
                "summary " + partial + "), move it and the generations it names (" + partial +
                ".TAG.0/.1) away, or pass --force to replace them");
  const fs::path dir = directory_of(out.path);
  const fs::file_status ds = fs::status(dir, ec);
  if (!fs::exists(ds)) return fail("directory " + dir.string() + " does not exist");
  if (!fs::is_directory(ds)) return fail(dir.string() + " is not a directory");
  // Permissions, read-only mounts, quotas on create: only trying tells (access() says yes to root).
  // A name of this process's own, created exclusively: nothing of another run's is touched.
  const std::string probe = fmt::format("{}.{:x}.probe", out.path, static_cast<unsigned>(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return fail("cannot create files in " + dir.string() + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  const double room = free_bytes(dir.string());
  if (room >= 0 && room < min_bytes)
    return fail(fmt::format("the file system of {} has {} free, the file needs at least {} (`desync check {} --ranks P` "
                            "itemizes it; fewer iterations, or a [record] window or stride where the workload has "
                            "[record], make it smaller)",
                            dir.string(), format_bytes(room), format_bytes(min_bytes), cfg.deck_path));
  return {};
}

}  // namespace

OutputTarget output_target(const Config& cfg, const std::string& cli_output, bool cli_force) {
  OutputTarget t;
  t.overwrite = cli_force || cfg.run.overwrite;
  if (!cli_output.empty()) {
    t.path = cli_output;
    t.where = "command line (-o " + cli_output + ")";
  } else if (!cfg.run.output.empty()) {
    t.path = cfg.run.output;
    t.where = cfg.run.output_pos.where;
  } else {
    t.path = output_path(cfg);
    t.where = cfg.deck_path + " (default output name)";
  }
  return t;
}

void check_output_path(const Config& cfg, const OutputTarget& out, double min_bytes, MPI_Comm comm) {
  std::string msg;
  if (comm_rank(comm) == 0) msg = probe(cfg, out, min_bytes);
  bcast_string(msg, 0, comm);
  if (!msg.empty()) throw DeckError(msg);
}

MemoryEstimate check_memory(const Config& cfg, MPI_Comm comm) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  std::string mine;
  MemoryEstimate est;
  try {
    est = estimate_memory(cfg, rank, size);
  } catch (const DeckError& e) {
    mine = e.what();
  }
  agree_or_throw(mine, comm);

  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  double sums[2] = {est.total(), 1.0};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, node);
  const bool node_root = comm_rank(node) == 0;
  MPI_Comm_free(&node);
  if (node_root) {
    const double limit = cfg.run.memory_limit_gib > 0 ? cfg.run.memory_limit_gib * 1024.0 * 1024.0 * 1024.0 : node_available_bytes();
    const char* what = cfg.run.memory_limit_gib > 0 ? "[run] memory_limit_gib allows" : "the node has";
    if (limit > 0 && sums[0] > limit)
      mine = fmt::format("{}: error: the run needs about {} on one node ({} rank(s); rank {}: {}), but {} {}; "
                         "reduce {} (docs/decks.md, \"Memory\")",
                         cfg.deck_path, format_bytes(sums[0]), static_cast<int>(sums[1]), rank, est.describe(), what,
                         format_bytes(limit), est.knobs);
  }
  agree_or_throw(mine, comm);
  return est;
}

int required_thread_level(int argc, char** argv) {
  std::string deck;
  std::vector<std::string> sets;
  bool run = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "run" && !run) {
      run = true;
    } else if (a == "--set" && i + 1 < argc) {
      sets.emplace_back(argv[++i]);
    } else if (a.rfind("--set=", 0) == 0) {
      sets.push_back(a.substr(6));
    } else if ((a == "-o" || a == "--output") && i + 1 < argc) {
      ++i;
    } else if (run && deck.empty() && !a.empty() && a[0] != '-') {
      deck = a;
    }
  }
  if (!run || deck.empty()) return MPI_THREAD_FUNNELED;
  try {
    // The same guarded read as the deck's (a FIFO, /dev/zero or a huge file is not read here: the
    // normal path after MPI_Init refuses it with its message).
    std::string text;
    if (!read_small_file(deck, "deck", text).empty()) return MPI_THREAD_FUNNELED;
    return load_deck(text, deck, sets).comm.needs_thread_multiple() ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED;
  } catch (...) {
    return MPI_THREAD_FUNNELED;
  }
}

void check_thread_level(const Config& cfg, MPI_Comm) {
  if (!cfg.comm.needs_thread_multiple()) return;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided >= MPI_THREAD_MULTIPLE) return;
  const char* names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
  const std::string why = cfg.comm.progress == ProgressMode::thread ? "[comm] progress = \"thread\"" : "[comm] send = \"parallel\"";
  throw DeckError(fmt::format("{}: error: {} needs MPI_THREAD_MULTIPLE, but the MPI library provides {}; use "
                              "progress = \"wait\" and send = \"nonblocking\" or \"blocking\", or an MPI built with "
                              "thread support",
                              cfg.deck_path, why, names[std::clamp(provided, 0, 3)]));
}

std::string memory_summary(const Config& cfg, int ranks) {
  int p = ranks;
  if (p <= 0) {
    const auto implied = workload_module(cfg.run.workload).deck_ranks;
    p = implied ? static_cast<int>(implied(cfg)) : 0;
  }
  if (p <= 0) p = 1;
  MemoryEstimate m;
  try {
    // The larger of the first and last rank's (the ranks whose shares differ most).
    MemoryEstimate m0 = estimate_memory(cfg, 0, p), m1 = estimate_memory(cfg, p - 1, p);
    m = m0.total() >= m1.total() ? m0 : m1;
  } catch (const DeckError&) {
    return "# memory estimate: give --ranks P (the deck needs a rank count)\n";
  } catch (const std::bad_alloc&) {
    throw DeckError(cfg.deck_path + ": error: the matrix is too large to even describe on this machine");
  }
  if (cfg.run.memory_limit_gib > 0 && m.total() > cfg.run.memory_limit_gib * 1073741824.0)
    throw DeckError(fmt::format("{}: error: one rank needs about {}, more than [run] memory_limit_gib = {} GiB; reduce {}",
                                cfg.deck_path, m.describe(), cfg.run.memory_limit_gib, m.knobs));
  // The deck is valid (it may be meant for larger nodes), but a run here would be refused: said.
  const double here = node_available_bytes();
  if (cfg.run.memory_limit_gib <= 0 && here > 0 && m.total() > here)
    log::warn("{}: one rank needs about {}, more than this machine's {} available: `desync run` here would refuse it "
              "(reduce {}; or set [run] memory_limit_gib for the nodes it is meant for)\n",
              cfg.deck_path, format_bytes(m.total()), format_bytes(here), m.knobs);
  return fmt::format("# memory estimate on {} rank(s): {} per rank, {} in all; this machine has {} available "
                     "(docs/decks.md, \"Memory\")\n",
                     p, m.describe(), format_bytes(m.total() * p), format_bytes(node_available_bytes()));
}

}  // namespace desync
