// desync's driver: MPI, command line, deck, Kokkos, run, report (main.cpp calls it; so does a
// test's binary after registering an example workload, tests/example_workload).
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "app/desync_main.hpp"
#include "workload/domain_threads.hpp"
#include "commands/info.hpp"
#include "commands/output_estimate.hpp"
#include "commands/plan_command.hpp"
#include "commands/preflight.hpp"
#include "commands/read_deck.hpp"
#include "config/noise_file.hpp"
#include "commands/run_deck.hpp"
#include "config/suggest.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "desync_version.hpp"
#include "device.hpp"
#include "device_choice.hpp"
#include "host/host_threads.hpp"
#include "kokkos_compat/runtime.hpp"
#include "workloads/registry.hpp"
#include "simulate/mpi_link_guard.hpp"
#include "simulate/sim_run.hpp"

namespace {

constexpr int max_ranks = 1 << 24;

// -o '' would silently mean the default name: refused by the parser, for run and simulate alike.
const CLI::Validator non_empty_file_name(
    [](const std::string& v) { return v.empty() ? std::string("an empty file name") : std::string(); }, "FILE", "non-empty");

// A whole number in [lo, hi]: CLI::Range alone answers "Value abc not in range" for a word and
// takes 1e3 as 1000.
CLI::Validator integer_in(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](const std::string& v) {
        std::size_t used = 0;
        long long x = 0;
        try {
          x = std::stoll(v, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != v.size() || x < lo || x > hi)
          return "'" + desync::log::printable(v, 40) + "': allowed: an integer in [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "]";
        return std::string();
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]", "integer_in");
}

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

// Kokkos with its start-up chatter reported once, on standard error (kokkos_compat/runtime.hpp).
// Kokkos' own warnings (unset OMP_PROC_BIND, oversubscription) are switched off: desync reports
// binding and oversubscription itself, once (record/topology.cpp). A user's KOKKOS_DISABLE_WARNINGS
// wins (Kokkos refuses a flag that contradicts it).
// Threads of this rank's host execution space: [threads] per_rank, or with per_rank = "domain" the
// rank's share of its memory domain's cores (collective). 0: OMP_NUM_THREADS / the default.
int requested_host_threads(const desync::Config& cfg) {
  if (!cfg.threads.per_domain) return static_cast<int>(cfg.threads.per_rank);
  const desync::DomainThreads d = desync::resolve_domain_threads(MPI_COMM_WORLD);
  std::string line = fmt::format("{} thread(s): {} core(s) of {} shared by {} rank(s){}", d.threads, d.domain_cores,
                                 d.domain >= 0 ? fmt::format("memory domain {}", d.domain) : std::string("the node"),
                                 d.ranks_in_domain, d.note.empty() ? "" : "; " + d.note);
  desync::log::gathered(MPI_COMM_WORLD, line, "[threads] per_rank = \"domain\"");
  return d.threads;
}

// The threads per rank, within what the backend can start (backends/host/host_threads.hpp):
// checked on every rank (OMP_NUM_THREADS may differ), refused on all of them together.
int host_threads(const desync::Config& cfg) {
  const int n = requested_host_threads(cfg);
  int most = desync::backend::planned_host_threads(n);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (most > desync::backend::max_host_threads)
    throw desync::DeckError(fmt::format(
        "{}: error: {} thread(s) per rank ({}): more than the {} host threads one process can start; allowed: "
        "[threads] per_rank in 1 .. {}, or OMP_NUM_THREADS <= {} with per_rank = 0",
        cfg.deck_path, most, cfg.threads.per_domain ? "[threads] per_rank = \"domain\"" : "OMP_NUM_THREADS",
        desync::backend::max_host_threads, desync::backend::max_host_threads, desync::backend::max_host_threads));
  return n;
}

// The rank's GPU where the backend has GPUs (backends/device_choice.hpp: the node-local rank modulo
// the devices it sees, unless the launcher narrowed them to one), handed to Kokkos as
// --kokkos-device-id (spelled the same in Kokkos 3.4 and 4.x); collective over MPI_COMM_WORLD.
std::string device_flag() {
  const int visible = desync::backend::visible_devices();
  int any = visible;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any == 0) return {};
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  const desync::backend::DeviceChoice c = desync::backend::choose_device(local, visible);
  return c.device < 0 ? std::string{} : fmt::format("--kokkos-device-id={}|{}", c.device, c.why);
}

std::unique_ptr<desync::compat::Runtime> start_kokkos(char** argv) {
  static char flag[] = "--kokkos-disable-warnings";
  static std::string device;
  const std::string choice = device_flag();
  device = choice.substr(0, choice.find('|'));
  static char* kargv[4] = {argv[0], nullptr, nullptr, nullptr};
  static int kargc = 1;
  kargc = 1;
  if (!std::getenv("KOKKOS_DISABLE_WARNINGS")) kargv[kargc++] = flag;
  if (!device.empty()) kargv[kargc++] = device.data();
  auto rt = std::make_unique<desync::compat::Runtime>(kargc, kargv);
  desync::log::gathered(MPI_COMM_WORLD, rt->startup_messages(), "Kokkos said at start-up");
  if (!device.empty()) {
    const int d = desync::backend::current_device();
    desync::log::gathered(MPI_COMM_WORLD,
                          fmt::format("GPU {} ({}): {}", d, choice.substr(choice.find('|') + 1),
                                      desync::backend::describe_device(d)),
                          "the ranks' GPUs");
  }
  return rt;
}

int dispatch(int argc, char** argv, int rank) {
  CLI::App app{"desync: reproduce and study how MPI programs fall out of lock-step", "desync"};
  app.set_version_flag("--version", std::string("desync ") + desync::build::version + " (git " +
                                        desync::build::git_revision + ")");
  app.require_subcommand(1);
  std::string deck, output;
  std::vector<std::string> sets;
  int check_ranks = 0;
  bool force = false;

  auto* run = app.add_subcommand("run", "run the experiment a deck describes and write its HDF5 file");
  run->add_option("deck", deck, "deck file (TOML), see docs/decks.md")->required()
      ->check(non_empty_file_name);
  run->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  run->add_option("-o,--output", output, "output HDF5 file (default: [run] output, else DECK.h5)")
      ->check(non_empty_file_name);
  run->add_flag("-f,--force", force, "replace the output file if it exists");

  auto* check = app.add_subcommand("check", "validate a deck and print the resolved configuration");
  check->add_option("deck", deck, "deck file (TOML)")->required()
      ->check(non_empty_file_name);
  check->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  check->add_option("--ranks", check_ranks, "also check rank-dependent values for this many ranks")
      ->check(integer_in(1, max_ranks));

  auto* info = app.add_subcommand("info", "print Kokkos, MPI and hwloc information");

  desync::SimulateOptions sim_opt;
  auto* simulate = app.add_subcommand(
      "simulate", std::string("run the deck's experiment on a modelled cluster (SimGrid) and write the same HDF5 file") +
                      (desync::simulator_available() ? "" : " [not compiled in: SimGrid was not found]"));
  simulate->add_option("deck", deck, "deck file (TOML), see docs/decks.md")->required()
      ->check(non_empty_file_name);
  simulate->add_option("--platform", sim_opt.platform, "platform file (TOML), see docs/simulate.md and platforms/")
      ->required()
      ->check(non_empty_file_name);
  simulate->add_option("--ranks", sim_opt.ranks, "virtual ranks (default: every node of the platform, full)")
      ->check(integer_in(1, desync::max_simulated_ranks));
  simulate->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  simulate->add_option("--pset", sim_opt.platform_sets, "override a platform value: table.key=value (repeatable)")
      ->allow_extra_args(false);
  simulate->add_option("-o,--output", sim_opt.output, "output HDF5 file (default: [run] output, else DECK.h5)")
      ->check(non_empty_file_name);
  simulate->add_flag("-f,--force", sim_opt.force, "replace the output file if it exists");

  desync::PlanOptions plan_opt;
  std::string plan_format = "text";
  desync::PlanModelOptions plan_model;
  auto* plan = app.add_subcommand("plan", "partition and halo plan of the deck's matrix, or the communication plan of a "
                                          "symmsquarecube deck, for P ranks (runs no kernel)");
  plan->add_option("deck", deck, "deck file (TOML) with a [matrix] table or [run] workload = \"symmsquarecube\"")->required()
      ->check(non_empty_file_name);
  plan->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  plan->add_option("--ranks", plan_opt.ranks, "number of (virtual) ranks")->required()->check(integer_in(1, max_ranks));
  plan->add_option("--ranks-per-node", plan_opt.ranks_per_node, "ranks per node, for intra/inter-node flags (default: a symmsquarecube deck's [placement], else all on one)")
      ->check(integer_in(1, max_ranks));
  plan_opt.nb = 0;  // not given: the deck's block width ([chebfd] nb), else 1
  plan->add_option("--nb", plan_opt.nb, "vectors per block, message bytes scale with it (default: the deck's, e.g. [chebfd] nb; else 1)")
      ->check(integer_in(1, 4096));
  plan->add_option("--rank", plan_opt.only_rank, "scan only this rank (fast; no global nnz or bandwidth)")
      ->check(integer_in(0, max_ranks - 1));
  plan->add_option("--format", plan_format, "output format")->check(CLI::IsMember({"text", "json"}));
  plan->add_option("--spy-grid", plan_opt.spy_grid, "json: nonzeros of a G x G grid of row/column blocks, for "
                                                    "desync_view.py plan-plot (default min(256, nr); 0: none)")
      ->check(integer_in(0, 1024));
  plan->add_option("--bandwidth", plan_model.bandwidth_MiBps,
                   "symmsquarecube: link bandwidth in MiB/s (2^20 B/s) for the model time (default: volumes only)")
      ->check(CLI::Range(1e-3, 1e12));
  plan->add_option("--latency", plan_model.latency_us, "symmsquarecube: latency alpha in microseconds (default 0; needs --bandwidth)")
      ->check(CLI::Range(0.0, 1e9));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::ostringstream sink;
    return rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
  } catch (const CLI::CallForAllHelp& e) {
    std::ostringstream sink;
    return rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
  } catch (const CLI::Success& e) {
    std::ostringstream sink;
    return rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error of desync (CLI11's own adds a second one). -o given to a
    // command that writes nothing is named as such (CLI11 would list it as "not expected: x.h5 -o").
    std::string what = e.what();
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      // An option of another command (plan --pset, check --ranks): named with the commands that
      // take it, not listed as "not expected".
      for (CLI::App* given : {run, check, plan, simulate, info}) {
        if (!given->parsed()) continue;
        for (int i = argc - 1; i >= 1; --i) {
          std::string a = argv[i];
          if (a.size() < 2 || a[0] != '-' || a == "--") continue;
          if (const auto eq = a.find('='); eq != std::string::npos) a.resize(eq);
          if (given->get_option_no_throw(a) != nullptr) continue;
          std::string owners;
          for (const CLI::App* other : {run, check, plan, simulate, info})
            if (other != given && other->get_option_no_throw(a) != nullptr)
              owners += (owners.empty() ? "`desync " : ", `desync ") + other->get_name() + "`";
          if (!owners.empty())
            what = desync::log::printable(a, 40) + ": an option of " + owners + ", not of `desync " + given->get_name() + "`";
        }
      }
      for (auto* writes_nothing : {check, plan, info}) {
        if (!writes_nothing->parsed()) continue;
        for (int i = 1; i < argc; ++i)
          if (std::string a = argv[i]; a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0)
            what = "-o/--output: `desync " + writes_nothing->get_name() + "` writes no file (-o is for run and simulate)";
      }
    }
    // A misspelt command ("runn") leaves no command parsed: CLI11 says only that one is required.
    std::vector<std::string> commands;
    bool any_parsed = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      commands.push_back(sub->get_name());
      any_parsed = any_parsed || sub->parsed();
    }
    if (!any_parsed && argc > 1) {
      std::string list;
      for (const auto& c : commands) list += (list.empty() ? "" : ", ") + c;
      const std::string first = desync::log::printable(argv[1], 60);
      what = argv[1][0] == '-' ? "'" + first + "' before a command; the command comes first, its options after it (commands: " + list + ")"
                               : "unknown command '" + first + "'" + desync::did_you_mean(argv[1], commands) + " (commands: " + list + ")";
    }
    if (rank == 0) std::fprintf(stderr, "desync: error: %s (see desync --help)\n", what.c_str());
    return desync::exit_deck_error;
  }

  if (*info) {
    auto kokkos = start_kokkos(argv);
    desync::log::info("{}", desync::info_text(MPI_COMM_WORLD));
    return 0;
  }
  const desync::Config cfg = desync::read_deck(deck, sets, MPI_COMM_WORLD);
  for (const std::string& w : cfg.deck_warnings) desync::log::warn("{}\n", w);
  if (*plan) {
    desync::backend::request_host_threads(host_threads(cfg));
    auto kokkos = start_kokkos(argv);
    const std::string text = desync::plan_command(cfg, plan_opt, plan_format, plan_model);
    if (rank == 0) std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (*check) {
    if (check_ranks > 0) desync::validate_for_ranks(cfg, check_ranks);
    else desync::check_record_window(cfg, 0);  // what does not depend on the rank count
    desync::log::info("# {}: valid\n{}{}{}{}", deck, desync::noise_file_summary(cfg), desync::memory_summary(cfg, check_ranks),
                      desync::output_summary(cfg, check_ranks), cfg.resolved_toml);
    return 0;
  }
  if (*simulate) {
    desync::backend::request_host_threads(1);
    auto kokkos = start_kokkos(argv);
    sim_opt.command_line = joined(argc, argv);
    return desync::simulate_deck(cfg, sim_opt, MPI_COMM_WORLD);
  }
  const desync::RunOptions opt{output, joined(argc, argv), force};
  const desync::RunPreflight pre = desync::preflight_run(cfg, opt, MPI_COMM_WORLD);
  desync::backend::request_host_threads(host_threads(cfg));
  auto kokkos = start_kokkos(argv);
  return desync::run_deck(cfg, opt, pre, MPI_COMM_WORLD);
}

}  // namespace

namespace desync {

int desync_main(int argc, char** argv) {
  desync::check_mpi_link_order();
  // Started without a launcher (`desync check`, `plan`, a one-process run), an Open MPI
  // singleton forks a helper daemon only so that it could spawn processes, which desync never
  // does: the fork costs a quarter of a second and, on a loaded machine, was the one step of
  // start-up seen to fail (the flake hunt, docs/method.md section 29). Only singletons read this
  // setting; a user's own value is kept, and other MPI libraries ignore it.
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, desync::required_thread_level(argc, argv), &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  desync::log::set_rank(rank);
  int code = 0;
  try {
    code = dispatch(argc, argv, rank);
  } catch (const desync::DeckError& e) {
    // Every rank parsed the same bytes (or agreed on the problem), so every rank is here: exit
    // together, rank 0 reports.
    desync::log::error(e.what());
    code = desync::exit_deck_error;
  } catch (const desync::OutputError& e) {
    // Thrown on every rank with the same message, the .tmp already removed.
    desync::log::error(std::string("desync: error: ") + e.what());
    code = desync::exit_output_failed;
  } catch (const std::exception& e) {
    // One rank alone (out of memory, an internal error): the others may wait in a collective.
    const bool oom = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::fprintf(stderr, "desync: error on rank %d: %s\n", rank,
                 oom ? "out of memory (an allocation failed; docs/decks.md, \"Memory\", explains the estimate)"
                     : desync::log::printable(e.what()).c_str());
    std::error_code ec;
    if (!desync::pending_output().empty()) std::filesystem::remove(desync::pending_output(), ec);
    MPI_Abort(MPI_COMM_WORLD, desync::exit_runtime_error);
  }
  MPI_Finalize();
  return code;
}

}  // namespace desync
