#include "workloads/stencil/stencil_halo.hpp"

#include <string>
#include <utility>

#include "core/device_copy.hpp"

namespace desync {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

// Directions in a fixed order: W, E, S, N, then the corners SW, SE, NW, NE.
constexpr int dirs[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};

int direction_index(int dx, int dy) {
  for (int k = 0; k < 8; ++k)
    if (dirs[k][0] == dx && dirs[k][1] == dy) return k;
  return -1;
}

// Padded positions of the cells sent towards (dx, dy) (`ghost` false: the g outermost layers of
// the own block on that side) or received from there (`ghost` true: the ghost cells on that
// side), rows outer, columns inner: both partners enumerate the same shape in the same order.
void append_region(const StencilGrid& s, int dx, int dy, bool ghost, std::vector<std::int64_t>& out) {
  const auto range = [&](int d, std::int64_t len) -> std::pair<std::int64_t, std::int64_t> {
    if (d < 0) return ghost ? std::pair<std::int64_t, std::int64_t>{0, s.g} : std::pair<std::int64_t, std::int64_t>{s.g, 2 * s.g};
    if (d > 0) return ghost ? std::pair<std::int64_t, std::int64_t>{s.g + len, len + 2 * s.g} : std::pair<std::int64_t, std::int64_t>{len, len + s.g};
    return {s.g, s.g + len};
  };
  const auto [i0, i1] = range(dx, s.lx);
  const auto [j0, j1] = range(dy, s.ly);
  for (std::int64_t j = j0; j < j1; ++j)
    for (std::int64_t i = i0; i < i1; ++i) out.push_back(s.at(i, j));
}

struct Gather {
  Kokkos::View<const std::int64_t*, MemSpace> index;
  Vector from, to;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const { to(k) = from(index(k)); }
};

struct Scatter {
  Kokkos::View<const std::int64_t*, MemSpace> index;
  Vector from, to;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const { to(index(k)) = from(k); }
};

}  // namespace

StencilHaloPlan stencil_halo_plan(const StencilGrid& grid, bool corners) {
  StencilHaloPlan h;
  for (int k = 0; k < (corners ? 8 : 4); ++k) {
    const int dx = dirs[k][0], dy = dirs[k][1];
    const int rank = grid.neighbour(dx, dy);
    if (rank < 0) continue;
    const auto s0 = static_cast<std::int64_t>(h.send_index.size()), r0 = static_cast<std::int64_t>(h.recv_index.size());
    append_region(grid, dx, dy, false, h.send_index);
    append_region(grid, dx, dy, true, h.recv_index);
    h.send.push_back({rank, k, s0, static_cast<std::int64_t>(h.send_index.size()) - s0});
    h.recv.push_back({rank, direction_index(-dx, -dy), r0, static_cast<std::int64_t>(h.recv_index.size()) - r0});
  }
  return h;
}

StencilHalo::StencilHalo(const StencilGrid& grid, bool corners, const Communicators& comms, const CommConfig& opt) {
  StencilHaloPlan plan = stencil_halo_plan(grid, corners);
  recv_ = std::move(plan.recv);
  send_ = std::move(plan.send);
  send_index_ = to_device("desync::stencil::halo_send_index", plan.send_index);
  recv_index_ = to_device("desync::stencil::halo_recv_index", plan.recv_index);
  send_buf_ = Vector("desync::stencil::halo_send", plan.send_index.size());
  recv_buf_ = Vector("desync::stencil::halo_recv", plan.recv_index.size());
  const auto messages = [](const std::vector<Partner>& list) {
    std::vector<Message> m;
    for (const auto& p : list)
      m.push_back({p.rank, static_cast<std::size_t>(p.offset) * sizeof(double), static_cast<std::size_t>(p.count) * sizeof(double), p.tag});
    return m;
  };
  exchange_ = std::make_unique<Exchange>(comms, Channel::grid_halo, messages(send_), messages(recv_), opt, BufferSpace::device);
}

void StencilHalo::pack(const Vector& x) {
  const auto n = static_cast<std::int64_t>(send_buf_.extent(0));
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string halo_pack_label = "desync::stencil::halo_pack";
  if (n > 0) Kokkos::parallel_for(halo_pack_label, Policy(0, n), Gather{send_index_, x, send_buf_});
  ExecSpace().fence();  // the buffer must be complete before MPI reads it
}

void StencilHalo::post() { exchange_->post(send_buf_.data(), recv_buf_.data()); }

void StencilHalo::wait() { exchange_->complete(); }

void StencilHalo::unpack(const Vector& x) {
  const auto n = static_cast<std::int64_t>(recv_buf_.extent(0));
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string halo_unpack_label = "desync::stencil::halo_unpack";
  if (n > 0) Kokkos::parallel_for(halo_unpack_label, Policy(0, n), Scatter{recv_index_, recv_buf_, x});
  ExecSpace().fence();
}

}  // namespace desync
