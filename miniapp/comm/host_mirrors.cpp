#include "comm/host_mirrors.hpp"

#include <Kokkos_Core.hpp>

#include <stdexcept>

#include "kokkos_compat/staging_space.hpp"

namespace desync {

namespace {
using DeviceBytes = Kokkos::View<char*, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using HostBytes = Kokkos::View<char*, compat::StagingSpace>;
}  // namespace

struct HostMirrors::Mirror {
  const char* device;
  std::size_t bytes;
  HostBytes host;
};

HostMirrors::HostMirrors() = default;
HostMirrors::~HostMirrors() = default;

void HostMirrors::add(const void* device, std::size_t bytes) {
  mirrors_.push_back(std::make_unique<Mirror>(
      Mirror{static_cast<const char*>(device), bytes,
             HostBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "desync::comm::host_mirror"), bytes)}));
}

// A linear search over the handful of buffers a workload registers (at most ten).
char* HostMirrors::find(const void* device, std::size_t bytes) const {
  const char* p = static_cast<const char*>(device);
  for (const auto& m : mirrors_)
    if (p >= m->device && p + bytes <= m->device + m->bytes) return m->host.data() + (p - m->device);
  throw std::logic_error("HostMirrors: MPI was handed a device buffer that has no host mirror (not registered)");
}

const void* HostMirrors::to_host(const void* device, std::size_t bytes) {
  char* h = find(device, bytes);
  if (bytes > 0)
    Kokkos::deep_copy(Kokkos::View<char*, compat::StagingSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h, bytes),
                      DeviceBytes(const_cast<char*>(static_cast<const char*>(device)), bytes));
  return h;
}

void HostMirrors::to_device(void* device, std::size_t bytes) {
  char* h = find(device, bytes);
  if (bytes > 0)
    Kokkos::deep_copy(DeviceBytes(static_cast<char*>(device), bytes),
                      Kokkos::View<char*, compat::StagingSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h, bytes));
}

}  // namespace desync
