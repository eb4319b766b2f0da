#pragma once
// Computation that overlaps an exchange in flight. With [comm] progress = "test" the work over
// [0, n) items runs in chunks of Exchange::test_chunk(n) items with an MPI_Testall after each,
// so the library can advance rendezvous transfers while the rank computes; in the other modes
// it runs as one piece. Each workload says what an item is (docs/decks.md, test_interval).
#include <algorithm>
#include <cstdint>

#include "comm/exchange.hpp"

namespace desync {

// work(begin, end) computes items [begin, end) and returns when they are done (fenced).
template <class Work>
void overlap_exchange(Exchange& x, std::int64_t n, Work&& work) {
  const std::int64_t step = x.test_chunk(n);
  for (std::int64_t b = 0; b < n; b += step) {
    work(b, std::min(n, b + step));
    x.test();
  }
}

}  // namespace desync
