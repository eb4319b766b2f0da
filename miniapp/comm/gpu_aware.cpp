#include "comm/gpu_aware.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <string_view>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include "kokkos_compat/staging_space.hpp"

namespace desync {

#if defined(MPIX_GPU_SUPPORT_CUDA) || defined(MPIX_GPU_SUPPORT_HIP)
namespace {
// MPICH 4.x: the running library's answer, after MPI_Init (MPIR_CVAR_ENABLE_GPU may switch it off).
int mpich_gpu_query(int kind, const char* name, std::string& how) {
  int yes = 0;
  MPIX_GPU_query_support(kind, &yes);
  how = fmt::format("MPIX_GPU_query_support({}) = {}", name, yes);
  return yes ? 1 : 0;
}
}  // namespace
#endif

int mpi_reads_device_memory(std::string& how) {
  const std::string_view backend = compat::device_backend;
  if (backend.empty()) {
    how = "not asked (host build)";
    return -1;
  }
  if (backend == "CUDA") {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    // Open MPI: the macro says how the library was built, the call what the running one does.
    const int yes = MPIX_Query_cuda_support();
    how = fmt::format("MPIX_Query_cuda_support() = {} (built with MPIX_CUDA_AWARE_SUPPORT {})", yes,
                      MPIX_CUDA_AWARE_SUPPORT);
    return yes ? 1 : 0;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    return mpich_gpu_query(MPIX_GPU_SUPPORT_CUDA, "MPIX_GPU_SUPPORT_CUDA", how);
#endif
  }
  if (backend == "HIP") {
#if defined(MPIX_ROCM_AWARE_SUPPORT)
    const int yes = MPIX_Query_rocm_support();  // Open MPI 5
    how = fmt::format("MPIX_Query_rocm_support() = {}", yes);
    return yes ? 1 : 0;
#elif defined(MPIX_GPU_SUPPORT_HIP)
    return mpich_gpu_query(MPIX_GPU_SUPPORT_HIP, "MPIX_GPU_SUPPORT_HIP", how);
#endif
  }
  how = fmt::format("unknown: this MPI library has no query for {} memory", backend);
  return -1;
}

GpuAwareChoice choose_gpu_aware_mpi(GpuAwareMpi requested) {
  GpuAwareChoice c;
  c.requested = requested;
  c.device_memory = !compat::default_memory_host_accessible;
  const int reads = mpi_reads_device_memory(c.detected);
  switch (requested) {
    case GpuAwareMpi::automatic: c.staged = c.device_memory && reads != 1; break;
    case GpuAwareMpi::on:
      c.staged = false;
      if (c.device_memory && reads != 1)
        c.warning = fmt::format("[comm] gpu_aware_mpi = \"on\": device buffers go to MPI as they are, but the MPI "
                                "library {} ({}); if it crashes or delivers wrong data, use \"auto\" or \"off\"",
                                reads == 0 ? "says it cannot read them" : "cannot be asked", c.detected);
      break;
    case GpuAwareMpi::off: c.staged = true; break;
  }
  return c;
}

}  // namespace desync
