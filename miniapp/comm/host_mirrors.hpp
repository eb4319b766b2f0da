#pragma once
// Pinned host copies of the device buffers a collective workload hands MPI (comm/collectives.hpp)
// when [comm] gpu_aware_mpi stages them (comm/gpu_aware.hpp), as comm/staging.hpp does for the
// halo exchanges. Each buffer the workload registers at set-up (add) gets a mirror of its size
// in compat::StagingSpace; an address inside a registered buffer maps to the same offset in its
// mirror. to_host() copies a range device -> mirror before MPI reads it, to_device() mirror ->
// device after MPI has written it; both are deep_copy without an execution space, fenced, so MPI
// never reads bytes a kernel is still writing. Nothing allocates after set-up.
#include <cstddef>
#include <memory>
#include <vector>

namespace desync {

class HostMirrors {
 public:
  HostMirrors();
  ~HostMirrors();
  HostMirrors(const HostMirrors&) = delete;
  HostMirrors& operator=(const HostMirrors&) = delete;

  // Set-up: a mirror for the `bytes` bytes from `device` (a buffer of the default memory space).
  void add(const void* device, std::size_t bytes);
  // The mirror address of `device`, which must lie in a registered buffer with `bytes` bytes
  // from it (std::logic_error otherwise: a buffer the workload forgot to register).
  char* find(const void* device, std::size_t bytes) const;
  // Copies `bytes` from `device` into its mirror; returns the mirror address.
  const void* to_host(const void* device, std::size_t bytes);
  // Copies `bytes` from the mirror of `device` into `device`.
  void to_device(void* device, std::size_t bytes);

 private:
  struct Mirror;
  std::vector<std::unique_ptr<Mirror>> mirrors_;
};

}  // namespace desync
