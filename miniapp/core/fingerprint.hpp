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

// The sum of squares of a result vector: what runs that cannot agree bitwise (another backend's
// fused multiply-adds and reduction order) are compared by, within a tolerance (/summary/result_norm2).
inline double sum_of_squares(const double* v, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += v[i] * v[i];
  return s;
}

// Values that are not finite (Inf, NaN): a verified quantity with any of them fails, even when a
// reference computed the same overflow (docs/method.md, section 7).
inline std::int64_t count_nonfinite(const double* v, std::size_t n) {
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += !(v[i] - v[i] == 0.0);  // false for Inf and NaN
  return bad;
}

}  // namespace desync
