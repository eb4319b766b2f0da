#include "comm/staging.hpp"

#include <cstring>

#include "kokkos_compat/staging_space.hpp"

namespace desync {

namespace {
std::size_t length(ByteRange r) { return r.end > r.begin ? r.end - r.begin : 0; }
}  // namespace

struct Staging::Buffers {
  compat::StagingBytes send, recv;
};

Staging::Staging(ByteRange send, ByteRange recv) : send_(send), recv_(recv), buf_(std::make_unique<Buffers>()) {
  // From byte 0, so that the messages' offsets hold in the host buffers as they are (the ranges
  // of the halo exchanges start at 0: packed send buffers, halos from their first entry).
  buf_->send = compat::staging_bytes("desync::comm::staged_send", send.end);
  buf_->recv = compat::staging_bytes("desync::comm::staged_recv", recv.end);
}

Staging::~Staging() = default;

// The copies fence (compat::copy_to_staging): the device has finished the kernels that wrote the
// send buffer, and the bytes are in host memory before MPI reads them.
const char* Staging::to_host(const void* device_send) {
  compat::copy_to_staging(buf_->send.data() + send_.begin, static_cast<const char*>(device_send) + send_.begin, length(send_));
  return buf_->send.data();
}

char* Staging::recv_base() { return buf_->recv.data(); }

void Staging::poison_recv() { std::memset(buf_->recv.data() + recv_.begin, 0xff, length(recv_)); }

void Staging::to_device(void* device_recv) {
  compat::copy_from_staging(static_cast<char*>(device_recv) + recv_.begin, buf_->recv.data() + recv_.begin, length(recv_));
}

}  // namespace desync
