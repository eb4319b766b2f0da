#pragma once
// A byte buffer in its own anonymous memory mapping: page-aligned, backed by fresh pages, and
// returned to the system when freed. Message buffers of the micro-benchmarks use it because a
// heap block reused from an earlier, freed one measured up to 2x slower in shared-memory
// ping-pong on the development machine (docs/method.md, section 5): a measurement must not
// depend on what the allocator did before.
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <utility>

namespace desync {

class PageBuffer {
 public:
  PageBuffer() = default;
  explicit PageBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ == 0) return;
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<unsigned char*>(p);
  }
  ~PageBuffer() {
    if (data_) ::munmap(data_, bytes_);
  }
  PageBuffer(PageBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  PageBuffer& operator=(PageBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;

  unsigned char* data() { return data_; }
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  unsigned char& operator[](std::size_t i) { return data_[i]; }
  unsigned char operator[](std::size_t i) const { return data_[i]; }

 private:
  unsigned char* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace desync
