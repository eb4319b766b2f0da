// Every Kokkos kernel, allocation and profiling region desync launches is labelled desync::<area>::<what>, so any
// Kokkos Tool (kernel timer, space-time stack) lines up with desync's phases.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <set>
#include <string>

#include "config/config.hpp"
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

TEST(Labels, EveryKernelAndAllocationOfTheTriadRunHasThePrefix) {
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(on_kernel);
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(on_kernel);
  Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(on_kernel);
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_alloc);
  Kokkos::Tools::Experimental::set_push_region_callback(on_region);
  for (TriadKernel k : {TriadKernel::stream, TriadKernel::schoenauer, TriadKernel::divide}) {
    Config cfg = load_deck("[run]\niterations = 3\nwarmup = 1\nprogress_interval = 0\n[triad]\nsize_per_rank = 100\n",
                           "labels.toml", {});
    cfg.params.get<TriadConfig>().kernel = k;
    (void)run_triad(cfg, MPI_COMM_WORLD);
  }
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(nullptr);
  Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(nullptr);
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);

  EXPECT_TRUE(g_labels.count("desync::triad::stream"));
  EXPECT_TRUE(g_labels.count("desync::triad::schoenauer"));
  EXPECT_TRUE(g_labels.count("desync::triad::divide"));
  EXPECT_TRUE(g_labels.count("desync::triad::verify"));
  EXPECT_TRUE(g_allocs.count("desync::triad::a"));
  EXPECT_TRUE(g_labels.count("desync::triad")) << "the workload's profiling region";
  for (const auto& l : g_labels) EXPECT_TRUE(is_desync_label(l)) << "unlabelled Kokkos kernel or region: " << l;
  // Backends allocate their own bookkeeping (e.g. "Kokkos::Serial::scratch_mem"); everything else is ours.
  for (const auto& l : g_allocs)
    EXPECT_TRUE(is_desync_label(l) || l.rfind("Kokkos::", 0) == 0) << "unlabelled allocation: " << l;
}

TEST(Labels, EveryKernelAndAllocationOfTheStencilRunHasThePrefix) {
  g_labels.clear();
  g_allocs.clear();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(on_kernel);
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(on_kernel);
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_alloc);
  Kokkos::Tools::Experimental::set_push_region_callback(on_region);
  for (const char* v : {"spmv", "base", "ca"})
    (void)run_stencil(load_deck(std::string("[run]\nworkload = \"stencil\"\niterations = 3\nwarmup = 1\nprogress_interval = 0\n"
                                            "[stencil]\nn = 12\nvariant = \"") + v + "\"\n",
                                "labels.toml", {}),
                      MPI_COMM_WORLD);
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(nullptr);
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  EXPECT_TRUE(g_labels.count("desync::stencil::sweep"));
  EXPECT_TRUE(g_labels.count("desync::stencil::crs_apply"));
  EXPECT_TRUE(g_labels.count("desync::stencil"));
  for (const auto& l : g_labels) EXPECT_TRUE(is_desync_label(l)) << "unlabelled Kokkos kernel or region: " << l;
  for (const auto& l : g_allocs)
    EXPECT_TRUE(is_desync_label(l) || l.rfind("Kokkos::", 0) == 0) << "unlabelled allocation: " << l;
}

}  // namespace
}  // namespace desync
