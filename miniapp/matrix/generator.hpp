#pragma once
// A matrix generator produces any row of its matrix on demand, from small replicated tables
// only, so a rank (and each of its threads) generates exactly its own rows. Rows follow
// matrices.md §1: sorted by column, contributions to one column summed, exact zeros dropped.
#include <complex>
#include <cstdint>
#include <memory>
#include <string>

namespace desync {

using GlobalIndex = std::int64_t;
using Scalar = std::complex<double>;  // real generators leave the imaginary part 0

class MatrixGenerator {
 public:
  virtual ~MatrixGenerator() = default;

  virtual GlobalIndex rows() const = 0;
  // Upper bound on the entries of a row before duplicates are merged: the buffer size row() needs.
  virtual int max_row_entries() const = 0;
  virtual bool is_complex() const = 0;
  // Writes row r into cols/vals (each max_row_entries() long), normalized; returns its length.
  // Thread-safe: const, no shared mutable state.
  virtual int row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const = 0;
};

// Sorts n entries by column, sums duplicates, drops exact zeros; returns the new length.
int normalize_row(GlobalIndex* cols, Scalar* vals, int n);

// FNV-1a over (row, column) pairs as 8-byte little-endian integers (matrices.md §1), continued
// from `hash` so rows can be fed one at a time in ascending order.
inline constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
std::uint64_t fnv1a_row(std::uint64_t hash, GlobalIndex row, const GlobalIndex* cols, int n);

}  // namespace desync
