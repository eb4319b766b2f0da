#include "comm/host_mirrors.hpp"

#include <stdexcept>

#include "kokkos_compat/staging_space.hpp"

namespace desync {

struct HostMirrors::Mirror {
  const char* device;
  std::size_t bytes;
  compat::StagingBytes host;
};

HostMirrors::HostMirrors() = default;
HostMirrors::~HostMirrors() = default;

void HostMirrors::add(const void* device, std::size_t bytes) {
  mirrors_.push_back(std::make_unique<Mirror>(
      Mirror{static_cast<const char*>(device), bytes, compat::staging_bytes("desync::comm::host_mirror", bytes)}));
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
  compat::copy_to_staging(h, device, bytes);
  return h;
}

void HostMirrors::to_device(void* device, std::size_t bytes) { compat::copy_from_staging(device, find(device, bytes), bytes); }

}  // namespace desync
