#pragma once
// [comm] gpu_aware_mpi as a run resolved it (comm/gpu_aware.hpp chooses; the output file records).
#include <string>

#include "config/config.hpp"

namespace desync {

struct GpuAwareChoice {
  GpuAwareMpi requested = GpuAwareMpi::automatic;
  bool staged = false;          // copies through host buffers; false: MPI gets the buffers directly
  bool device_memory = false;   // the default memory space is device memory (a GPU build)
  std::string detected;         // what the MPI library says, e.g. "MPIX_Query_cuda_support() = 0"
  std::string warning;          // non-empty: what rank 0 reports (gpu_aware_mpi = "on" against "no")
};

// "direct" or "staged", as the output file records it.
inline const char* gpu_aware_effective_name(const GpuAwareChoice& c) { return c.staged ? "staged" : "direct"; }

}  // namespace desync
