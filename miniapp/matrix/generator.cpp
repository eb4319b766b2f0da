#include "matrix/generator.hpp"

namespace desync {

int normalize_row(GlobalIndex* cols, Scalar* vals, int n) {
  // Rows are short (at most a few dozen entries): insertion sort beats anything fancier.
  for (int i = 1; i < n; ++i) {
    const GlobalIndex c = cols[i];
    const Scalar v = vals[i];
    int j = i - 1;
    while (j >= 0 && cols[j] > c) {
      cols[j + 1] = cols[j];
      vals[j + 1] = vals[j];
      --j;
    }
    cols[j + 1] = c;
    vals[j + 1] = v;
  }
  int out = 0;
  for (int i = 0; i < n;) {
    GlobalIndex c = cols[i];
    Scalar sum = vals[i++];
    while (i < n && cols[i] == c) sum += vals[i++];
    if (sum != Scalar(0.0)) {
      cols[out] = c;
      vals[out++] = sum;
    }
  }
  return out;
}

std::uint64_t fnv1a_row(std::uint64_t hash, GlobalIndex row, const GlobalIndex* cols, int n) {
  auto feed = [&hash](std::uint64_t x) {
    for (int b = 0; b < 8; ++b) {
      hash ^= (x >> (8 * b)) & 0xffu;
      hash *= 0x100000001b3ull;
    }
  };
  for (int i = 0; i < n; ++i) {
    feed(static_cast<std::uint64_t>(row));
    feed(static_cast<std::uint64_t>(cols[i]));
  }
  return hash;
}

}  // namespace desync
