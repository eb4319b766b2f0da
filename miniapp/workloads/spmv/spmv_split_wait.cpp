// SPLIT-WAIT (papers.md A.3.3): post the halo exchange, compute the local part while messages
// travel, wait, then add the remote part. The result vector is written twice (16 B per row).
#include "workloads/spmv/spmv_state.hpp"

namespace desync {
namespace {
namespace split_wait_event {
enum : int { begin, pack_end, post_end, local_end, wait_end, remote_end };
}  // namespace split_wait_event
}

void split_wait_iteration(SpmvState& s, Timeline& tl, std::int64_t it) {
  tl.mark(it, split_wait_event::begin);
  s.halo.pack(s.x);
  tl.mark(it, split_wait_event::pack_end);
  s.halo.post(s.x);
  tl.mark(it, split_wait_event::post_end);
  s.local();
  tl.mark(it, split_wait_event::local_end);
  s.halo.wait();
  tl.mark(it, split_wait_event::wait_end);
  s.remote();
  tl.mark(it, split_wait_event::remote_end);
  s.swap();
}

void split_wait_iteration_without_exchange(SpmvState& s, Timeline& tl, std::int64_t it) {
  for (int e = split_wait_event::begin; e <= split_wait_event::post_end; ++e) tl.mark(it, e);
  s.local();
  tl.mark(it, split_wait_event::local_end);
  tl.mark(it, split_wait_event::wait_end);
  s.remote();
  tl.mark(it, split_wait_event::remote_end);
  s.swap();
}

}  // namespace desync
