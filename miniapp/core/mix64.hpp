#pragma once
// splitmix64's finalizer: a well-mixed 64-bit hash of a 64-bit value. The generators draw their
// random values from it (a matrix's disorder, message sizes drawn per pair) and the workloads'
// message patterns their bytes: a pattern of (position, sender, ...) through it has no period, so a
// fragment or a part delivered to the wrong place cannot carry the very bytes expected there (a
// linear pattern modulo 256 repeats every 256 bytes).
#include <cstdint>

namespace desync {

// One value: the bare finalizer (mix64(0) is 0); several values (below) fold through splitmix64.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// splitmix64: the finalizer of x plus the golden-ratio increment (mix64(0) is 0).
constexpr std::uint64_t splitmix64(std::uint64_t x) { return mix64(x + 0x9e3779b97f4a7c15ull); }

// The hash of several values, each folded in: splitmix64(splitmix64(splitmix64(a) ^ b) ^ c) ...
// ((a, b) and (b, a) differ). Message sizes are drawn from it: changing it changes them.
constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b) { return splitmix64(splitmix64(a) ^ b); }
constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b, std::uint64_t c) { return splitmix64(mix64(a, b) ^ c); }
constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  return splitmix64(mix64(a, b, c) ^ d);
}

}  // namespace desync
