#pragma once
// The pinned host buffers of one exchange when [comm] gpu_aware_mpi stages device buffers
// (comm/gpu_aware.hpp): before the sends, the bytes the sends read are copied from the device
// send buffer into the host send buffer; MPI receives into the host receive buffer, and once
// every receive has completed those bytes are copied into the device receive buffer. Each copy
// covers the byte range the messages span ([first offset, last end)), one deep_copy each, fenced,
// so MPI never reads data a kernel is still writing and the workload never reads a halo MPI is
// still filling. Allocated once, at construction; to_host() and to_device() allocate nothing.
#include <cstddef>
#include <memory>

namespace desync {

struct ByteRange {
  std::size_t begin = 0, end = 0;  // bytes from the base pointer; empty when begin == end
};

class Staging {
 public:
  Staging(ByteRange send, ByteRange recv);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Copies the send range of device_send into the host send buffer; returns the host base
  // pointer to give MPI (offsets unchanged).
  const char* to_host(const void* device_send);
  // The host base pointer MPI receives into (offsets unchanged).
  char* recv_base();
  // Copies the receive range from the host receive buffer into device_recv.
  void to_device(void* device_recv);
  // Fills the host receive range with 0xff bytes (NaN as doubles): before a checked iteration,
  // so that a message that did not arrive cannot leave the previous one's bytes to be copied in.
  void poison_recv();

 private:
  struct Buffers;
  ByteRange send_, recv_;
  std::unique_ptr<Buffers> buf_;
};

}  // namespace desync
