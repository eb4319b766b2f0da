#pragma once
// The host memory that MPI reads and writes when device buffers are staged ([comm] gpu_aware_mpi
// = "off", comm/staging.hpp): page-locked (pinned) host memory where the backend has it, so the
// copies run as DMA at full link speed, plain host memory otherwise. The pinned spaces are named
// per backend, and HIP's moved out of Experimental in Kokkos 4.0, hence behind this header.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

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

// Staging memory as bytes (allocated uninitialised), and the two copies between it and the
// default memory space that staged MPI buffers need (comm/staging.hpp for the halo exchanges,
// comm/host_mirrors.hpp for the collectives). Both are deep_copy without an execution space,
// which fences before and after: MPI never reads bytes a kernel is still writing, and the
// device sees what MPI wrote before the next kernel.
using StagingBytes = Kokkos::View<char*, StagingSpace>;
inline StagingBytes staging_bytes(const char* label, std::size_t n) {
  return StagingBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

namespace detail {
template <class Space>
using Unmanaged = Kokkos::View<char*, Space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using DeviceSpace = Kokkos::DefaultExecutionSpace::memory_space;
}  // namespace detail

// n bytes from device memory into staging memory.
inline void copy_to_staging(char* staging, const void* device, std::size_t n) {
  if (n > 0)
    Kokkos::deep_copy(detail::Unmanaged<StagingSpace>(staging, n),
                      detail::Unmanaged<detail::DeviceSpace>(static_cast<char*>(const_cast<void*>(device)), n));
}

// n bytes from staging memory into device memory.
inline void copy_from_staging(void* device, const char* staging, std::size_t n) {
  if (n > 0)
    Kokkos::deep_copy(detail::Unmanaged<detail::DeviceSpace>(static_cast<char*>(device), n),
                      detail::Unmanaged<StagingSpace>(const_cast<char*>(staging), n));
}

// Whether host code can read a space's memory: what the kernels' CPU-or-GPU thread mappings are
// chosen by (sell_mapping_for, block_mapping_for, sweep_mapping_for, stream_shape_for).
template <class Space>
inline constexpr bool host_accessible = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

// Whether host code, and so an MPI library that knows nothing of GPUs, can read the default
// execution space's memory (true for the OpenMP and Serial builds, false for CUDA and HIP).
inline constexpr bool default_memory_host_accessible = host_accessible<Kokkos::DefaultExecutionSpace>;

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
