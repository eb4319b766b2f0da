#pragma once
// The host memory that MPI reads and writes when device buffers are staged ([comm] gpu_aware_mpi
// = "off", comm/staging.hpp): page-locked (pinned) host memory where the backend has it, so the
// copies run as DMA at full link speed, plain host memory otherwise. The pinned spaces are named
// per backend, and HIP's moved out of Experimental in Kokkos 4.0, hence behind this header.
#include <Kokkos_Core.hpp>

namespace desync::compat {

#if defined(KOKKOS_ENABLE_CUDA)
using StagingSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
using StagingSpace = Kokkos::HIPHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP)
using StagingSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif

// Whether host code, and so an MPI library that knows nothing of GPUs, can read the default
// execution space's memory (true for the OpenMP and Serial builds, false for CUDA and HIP).
inline constexpr bool default_memory_host_accessible =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;

// The name of the backend's device-memory support as MPI libraries query it ("CUDA", "HIP"), or
// empty for host builds.
#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr const char* device_backend = "CUDA";
#elif defined(KOKKOS_ENABLE_HIP)
inline constexpr const char* device_backend = "HIP";
#else
inline constexpr const char* device_backend = "";
#endif

}  // namespace desync::compat
