#include "comm/staging.hpp"

#include <Kokkos_Core.hpp>

#include <utility>

#include "kokkos_compat/staging_space.hpp"

namespace desync {

namespace {
using DeviceBytes = Kokkos::View<char*, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using HostBytes = Kokkos::View<char*, compat::StagingSpace>;
std::size_t length(ByteRange r) { return r.end > r.begin ? r.end - r.begin : 0; }
}  // namespace

struct Staging::Buffers {
  HostBytes send, recv;
};

Staging::Staging(ByteRange send, ByteRange recv) : send_(send), recv_(recv), buf_(std::make_unique<Buffers>()) {
  // From byte 0, so that the messages' offsets hold in the host buffers as they are (the ranges
  // of the halo exchanges start at 0: packed send buffers, halos from their first entry).
  buf_->send = HostBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "desync::comm::staged_send"), send.end);
  buf_->recv = HostBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "desync::comm::staged_recv"), recv.end);
}

Staging::~Staging() = default;

// deep_copy without an execution space fences before and after: the device has finished the
// kernels that wrote the send buffer, and the bytes are in host memory before MPI reads them.
const char* Staging::to_host(const void* device_send) {
  const std::size_t n = length(send_);
  if (n > 0)
    Kokkos::deep_copy(Kokkos::subview(buf_->send, std::make_pair(send_.begin, send_.end)),
                      DeviceBytes(static_cast<char*>(const_cast<void*>(device_send)) + send_.begin, n));
  return buf_->send.data();
}

char* Staging::recv_base() { return buf_->recv.data(); }

void Staging::to_device(void* device_recv) {
  const std::size_t n = length(recv_);
  if (n > 0)
    Kokkos::deep_copy(DeviceBytes(static_cast<char*>(device_recv) + recv_.begin, n),
                      Kokkos::subview(buf_->recv, std::make_pair(recv_.begin, recv_.end)));
}

}  // namespace desync
