// Every Kokkos kernel, allocation and profiling region desync launches is labelled desync::<area>::<what>, so any
// Kokkos Tool (kernel timer, space-time stack) lines up with desync's phases.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/registry.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {
namespace {

std::set<std::string> g_labels;   // kernels and regions
std::set<std::string> g_allocs;   // allocations

void on_kernel(const char* name, std::uint32_t, std::uint64_t* id) {
  g_labels.insert(name);
  *id = 0;
}
void on_region(const char* name) { g_labels.insert(name); }
void on_alloc(Kokkos::Profiling::SpaceHandle, const char* name, const void*, std::uint64_t) { g_allocs.insert(name); }

// Kokkos' own kernels (View initialization) name the View they work for in brackets.
bool is_desync_label(const std::string& s) {
  return s.rfind("desync::", 0) == 0 || (s.rfind("Kokkos::", 0) == 0 && s.find("[desync::") != std::string::npos);
}
// KokkosKernels names what it runs itself (a BLAS call through its TPL is the region
// "KokkosBlas::gemm[TPL_BLAS,double]"); desync calls it inside a region of its own.
bool is_kokkos_kernels_label(const std::string& s) { return s.rfind("KokkosBlas::", 0) == 0 || s.rfind("KokkosSparse::", 0) == 0; }

// Records the labels of what Kokkos launches, allocates and opens as a region while it lives,
// into g_labels and g_allocs, emptied first.
struct Recording {
  Recording() {
    g_labels.clear();
    g_allocs.clear();
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(on_kernel);
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(on_kernel);
    Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(on_kernel);
    Kokkos::Tools::Experimental::set_allocate_data_callback(on_alloc);
    Kokkos::Tools::Experimental::set_push_region_callback(on_region);
  }
  ~Recording() {
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(nullptr);
    Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(nullptr);
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
};

// Every recorded kernel and region carries the prefix (or is KokkosKernels' own); every
// allocation too, but for a backend's own bookkeeping (e.g. "Kokkos::Serial::scratch_mem").
void expect_all_prefixed() {
  for (const auto& l : g_labels)
    EXPECT_TRUE(is_desync_label(l) || is_kokkos_kernels_label(l)) << "unlabelled Kokkos kernel or region: " << l;
  for (const auto& l : g_allocs)
    EXPECT_TRUE(is_desync_label(l) || l.rfind("Kokkos::", 0) == 0) << "unlabelled allocation: " << l;
}

TEST(Labels, EveryKernelAndAllocationOfTheTriadRunHasThePrefix) {
  {
    const Recording rec;
    for (TriadKernel k : {TriadKernel::stream, TriadKernel::schoenauer, TriadKernel::divide}) {
      Config cfg = load_deck("[run]\niterations = 3\nwarmup = 1\nprogress_interval = 0\n[triad]\nsize_per_rank = 100\n",
                             "labels.toml", {});
      cfg.params.get<TriadConfig>().kernel = k;
      (void)run_triad(cfg, MPI_COMM_WORLD);
    }
  }
  EXPECT_TRUE(g_labels.count("desync::triad::stream"));
  EXPECT_TRUE(g_labels.count("desync::triad::schoenauer"));
  EXPECT_TRUE(g_labels.count("desync::triad::divide"));
  EXPECT_TRUE(g_labels.count("desync::triad::verify"));
  EXPECT_TRUE(g_allocs.count("desync::triad::a"));
  EXPECT_TRUE(g_labels.count("desync::triad")) << "the workload's profiling region";
  expect_all_prefixed();
}

TEST(Labels, EveryKernelAndAllocationOfTheStencilRunHasThePrefix) {
  {
    const Recording rec;
    for (const char* v : {"spmv", "base", "ca"})
      (void)run_stencil(load_deck(std::string("[run]\nworkload = \"stencil\"\niterations = 3\nwarmup = 1\nprogress_interval = 0\n"
                                              "[stencil]\nn = 12\nvariant = \"") + v + "\"\n",
                                  "labels.toml", {}),
                        MPI_COMM_WORLD);
  }
  EXPECT_TRUE(g_labels.count("desync::stencil::sweep"));
  EXPECT_TRUE(g_labels.count("desync::stencil::crs_apply"));
  EXPECT_TRUE(g_labels.count("desync::stencil"));
  expect_all_prefixed();
}

// Every registered workload, small, on 1 and 2 ranks: what it launches, allocates and opens as a
// region carries the prefix, and its run is inside its region desync::<name>. A workload in the
// registry without a small deck here fails, so the next one added is checked too.
TEST(Labels, EveryRegisteredWorkloadsRunHasThePrefix) {
  // Per workload: [run] keys beyond workload and progress_interval (chebfd and saturation refuse
  // iterations), then its own tables; a workload with a [matrix] gets a small 5-point one.
  const std::map<std::string, std::string> small = {
      {"triad", "iterations = 3\nwarmup = 1\n[triad]\nsize_per_rank = 100\n"},
      {"spmv", "iterations = 3\nwarmup = 1\n"},
      {"stencil", "iterations = 3\nwarmup = 1\n[stencil]\nn = 12\n"},
      {"chebfd", "[chebfd]\nns = 4\nnb = 2\nnp = 4\n"},
      {"pingpong", "iterations = 3\nwarmup = 1\n[pingpong]\nsizes = [8, 1024]\n"},
      {"toy", "iterations = 3\nwarmup = 1\n[toy]\ncompute = 0.0001\nmax_bytes = 1024\n"},
      {"cg", "iterations = 3\nwarmup = 1\n"},
      {"collbench", "iterations = 3\nwarmup = 1\n[collbench]\nsizes = [4096]\n[placement]\nranks_per_node = 1\n"},
      {"matvec2d", "iterations = 3\nwarmup = 1\n[matvec2d]\nn = 100\n"},
      {"symmsquarecube", "iterations = 3\nwarmup = 1\n[symmsquarecube]\nn = 90\n"},
      {"saturation", "[saturation]\nsize = 4096\nrepetitions = 2\nmax_n = 1\n"},
  };
  for (const WorkloadModule& m : workload_registry()) {
    SCOPED_TRACE(m.deck.name);
    const auto it = small.find(m.deck.name);
    if (it == small.end()) {
      ADD_FAILURE() << "no small deck for workload " << m.deck.name << " here";
      continue;
    }
    std::string deck = "[run]\nworkload = \"" + m.deck.name + "\"\nprogress_interval = 0\n" + it->second;
    if (m.deck.needs_matrix) deck += "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 8\nny = 8\n";
    const Config cfg = load_deck(deck, "labels.toml", {});
    // A workload that refuses this rank count (pingpong's pairs and collbench's nodes at 1 rank,
    // the meshes of matvec2d and symmsquarecube and saturation's one rank at 2) is checked at the
    // other: the test runs at 1 and 2 ranks.
    try {
      validate_for_ranks(cfg, comm_size(MPI_COMM_WORLD));
      validate_workload_layout(cfg, MPI_COMM_WORLD);
    } catch (const DeckError& e) {
      if (comm_rank(MPI_COMM_WORLD) == 0)
        std::printf("%s: not at %d rank(s) (%s)\n", m.deck.name.c_str(), comm_size(MPI_COMM_WORLD), e.what());
      continue;
    }
    {
      const Recording rec;
      (void)m.run(cfg, MPI_COMM_WORLD);
    }
    EXPECT_TRUE(g_labels.count("desync::" + m.deck.name)) << "the workload's profiling region";
    expect_all_prefixed();
  }
}

}  // namespace
}  // namespace desync
