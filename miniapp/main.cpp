// desync: the driver. MPI, command line, deck, Kokkos, run, report; the work is in desync_core.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/info.hpp"
#include "app/plan_command.hpp"
#include "app/read_deck.hpp"
#include "app/run_deck.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "desync_version.hpp"
#include "host/host_threads.hpp"

namespace {

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

int dispatch(int argc, char** argv, int rank) {
  CLI::App app{"desync: reproduce and study how MPI programs fall out of lock-step", "desync"};
  app.set_version_flag("--version", std::string("desync ") + desync::build::version + " (git " +
                                        desync::build::git_revision + ")");
  app.require_subcommand(1);
  std::string deck, output;
  std::vector<std::string> sets;
  int check_ranks = 0;

  auto* run = app.add_subcommand("run", "run the experiment a deck describes and write its HDF5 file");
  run->add_option("deck", deck, "deck file (TOML), see docs/decks.md")->required();
  run->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  run->add_option("-o,--output", output, "output HDF5 file (default: [run] output, else DECK.h5)");

  auto* check = app.add_subcommand("check", "validate a deck and print the resolved configuration");
  check->add_option("deck", deck, "deck file (TOML)")->required();
  check->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  check->add_option("--ranks", check_ranks, "also check rank-dependent values for this many ranks");

  auto* info = app.add_subcommand("info", "print Kokkos, MPI and hwloc information");

  desync::PlanOptions plan_opt;
  std::string plan_format = "text";
  auto* plan = app.add_subcommand("plan", "partition and halo plan of the deck's matrix for P ranks (runs no kernel)");
  plan->add_option("deck", deck, "deck file (TOML) with a [matrix] table")->required();
  plan->add_option("--set", sets, "override a deck value: table.key=value (repeatable)")->allow_extra_args(false);
  plan->add_option("--ranks", plan_opt.ranks, "number of (virtual) ranks")->required()->check(CLI::PositiveNumber);
  plan->add_option("--ranks-per-node", plan_opt.ranks_per_node, "ranks per node, for intra/inter-node flags (default: all on one)")
      ->check(CLI::NonNegativeNumber);
  plan->add_option("--nb", plan_opt.nb, "vectors per block (message bytes scale with it)")->check(CLI::PositiveNumber);
  plan->add_option("--rank", plan_opt.only_rank, "scan only this rank (fast; no global nnz or bandwidth)");
  plan->add_option("--format", plan_format, "output format")->check(CLI::IsMember({"text", "json"}));

  std::ostringstream sink;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
    return code == 0 ? 0 : desync::exit_deck_error;
  }

  if (*info) {
    int kargc = 1;
    Kokkos::ScopeGuard kokkos(kargc, argv);
    desync::log::info("{}", desync::info_text(MPI_COMM_WORLD));
    return 0;
  }
  const desync::Config cfg = desync::read_deck(deck, sets, MPI_COMM_WORLD);
  if (*plan) {
    desync::backend::request_host_threads(static_cast<int>(cfg.threads.per_rank));
    int kargc = 1;
    Kokkos::ScopeGuard kokkos(kargc, argv);
    const std::string text = desync::plan_command(cfg, plan_opt, plan_format);
    if (rank == 0) std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (*check) {
    if (check_ranks > 0) desync::validate_for_ranks(cfg, check_ranks);
    desync::log::info("# {}: valid\n{}", deck, cfg.resolved_toml);
    return 0;
  }
  desync::backend::request_host_threads(static_cast<int>(cfg.threads.per_rank));
  int kargc = 1;
  Kokkos::ScopeGuard kokkos(kargc, argv);
  return desync::run_deck(cfg, {output, joined(argc, argv)}, MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  desync::log::set_rank(rank);
  int code = 0;
  try {
    code = dispatch(argc, argv, rank);
  } catch (const desync::DeckError& e) {
    // Every rank parsed the same bytes, so every rank is here: exit together, rank 0 reports.
    desync::log::error(e.what());
    code = desync::exit_deck_error;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "desync: error on rank %d: %s\n", rank, e.what());
    std::error_code ec;
    if (!desync::pending_output().empty()) std::filesystem::remove(desync::pending_output(), ec);
    MPI_Abort(MPI_COMM_WORLD, desync::exit_runtime_error);
  }
  MPI_Finalize();
  return code;
}
