#include "workloads/triad/neighbour_partners.hpp"

namespace desync {
namespace {

int partner(int rank, int size, std::int64_t d, Boundary boundary) {
  const std::int64_t p = rank + d;
  if (boundary == Boundary::periodic) return static_cast<int>(((p % size) + size) % size);
  return (p < 0 || p >= size) ? -1 : static_cast<int>(p);
}

}  // namespace

Partners neighbour_partners(int rank, int size, const std::vector<std::int64_t>& offsets,
                            Boundary boundary) {
  Partners p;
  for (auto d : offsets) {
    p.send_to.push_back(partner(rank, size, d, boundary));
    p.recv_from.push_back(partner(rank, size, -d, boundary));
  }
  return p;
}

}  // namespace desync
