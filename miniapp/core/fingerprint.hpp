#pragma once
// A 64-bit FNV-1a hash of raw bytes: a fingerprint of a result vector, so runs that must give
// bitwise the same numbers (schemes, barrier variants, kernels) can be compared cheaply.
#include <cstddef>
#include <cstdint>

namespace desync {

inline std::uint64_t fingerprint_bytes(const void* data, std::size_t bytes) {
  std::uint64_t f = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) f = (f ^ p[i]) * 0x100000001b3ull;
  return f;
}

}  // namespace desync
