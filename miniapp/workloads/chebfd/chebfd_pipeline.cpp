// PIPELINE (papers.md A.3.4): the degree loop outside, the ns/nb sub-blocks inside; the halo
// exchange of sub-block k+1 is in flight while the fused kernel runs on sub-block k, so no block
// is read or written twice. One timeline iteration per degree: begin, pack/post/wait of the first
// sub-block, fused_end after the last sub-block (the later exchanges overlap the kernels and are
// counted inside "fused"), then the delay slot and the sync.
#include <utility>

#include "workloads/chebfd/chebfd_filter.hpp"
#include "comm/overlap.hpp"

namespace desync::chebfd {
namespace {
using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
namespace chebfd_event {
enum : int { begin, pack_end, post_end, wait_end, fused_end };
}  // namespace chebfd_event
}  // namespace

template <class T>
int Filter<T>::run_pipeline(Timeline& tl, ExperimentLoop& loop) {
  const std::size_t n = (static_cast<std::size_t>(rows) + halo) * nb_;
  std::vector<Values<T>> u, w;
  for (int b = 0; b < blocks_; ++b) {
    u.emplace_back("desync::chebfd::u", n);
    w.emplace_back("desync::chebfd::w", n);
  }
  for (int b = 0; b < blocks_; ++b) {
    start(u[b], b);
    product(u[b], w[b], b, 1, nullptr, 0);
  }
  // One iteration per degree step p = it + 2, over all blocks.
  return loop.run(np_ - 1, [&](std::int64_t it) {
    const int p = static_cast<int>(it) + 2;
    const Step st = step_of(p);
    for (int b = 0; b < blocks_; ++b) std::swap(u[b], w[b]);
    tl.mark(it, chebfd_event::begin);
    halo_ex_.pack(u[0]);
    tl.mark(it, chebfd_event::pack_end);
    halo_ex_.post(u[0]);
    tl.mark(it, chebfd_event::post_end);
    halo_ex_.wait();
    tl.mark(it, chebfd_event::wait_end);
    for (int b = 0; b < blocks_; ++b) {
      if (b + 1 < blocks_) {
        halo_ex_.pack(u[b + 1]);
        halo_ex_.post(u[b + 1]);
      }
      const std::size_t x_off = static_cast<std::size_t>(b) * rows * nb_;
      if (b + 1 < blocks_) {
        // Sub-block b+1's halo travels meanwhile; progress = "test" cuts the rows (or SELL
        // chunks) into pieces.
        overlap_exchange(halo_ex_.exchange(), items(), [&](std::int64_t b0, std::int64_t e0) {
          (this->*fused_fn_[0])(u[b], w[b], x_off, st, b0, e0, slot(b, p));
        });
        halo_ex_.wait();
      } else {
        (this->*fused_fn_[0])(u[b], w[b], x_off, st, 0, items(), slot(b, p));
      }
    }
    tl.mark(it, chebfd_event::fused_end);
  });
}

template int Filter<double>::run_pipeline(Timeline&, ExperimentLoop&);
template int Filter<Complex>::run_pipeline(Timeline&, ExperimentLoop&);

}  // namespace desync::chebfd
