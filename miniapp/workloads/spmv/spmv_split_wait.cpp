// SPLIT-WAIT (papers.md A.3.3): post the halo exchange, compute the local part while messages
// travel, wait, then add the remote part. The result vector is written twice (16 B per row).
#include "workloads/spmv/spmv_state.hpp"

namespace desync {
namespace {
enum : int { begin, pack_end, post_end, local_end, wait_end, remote_end };
}

void split_wait_iteration(SpmvState& s, Timeline& tl, std::int64_t it) {
  tl.mark(it, begin);
  s.halo.pack(s.x);
  tl.mark(it, pack_end);
  s.halo.post(s.x);
  tl.mark(it, post_end);
  s.local();
  tl.mark(it, local_end);
  s.halo.wait();
  tl.mark(it, wait_end);
  s.remote();
  tl.mark(it, remote_end);
  s.swap();
}

}  // namespace desync
