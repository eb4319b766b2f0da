// NON-SPLIT (papers.md A.3.3): exchange the halo completely, then compute. Still two kernels,
// local then remote, so both schemes move the same data and give bitwise the same result.
#include "workloads/spmv/spmv_state.hpp"

namespace desync {
namespace {
enum : int { begin, pack_end, post_end, wait_end, local_end, remote_end };
}

void nonsplit_iteration(SpmvState& s, Timeline& tl, std::int64_t it) {
  tl.mark(it, begin);
  s.halo.pack(s.x);
  tl.mark(it, pack_end);
  s.halo.post(s.x);
  tl.mark(it, post_end);
  s.halo.wait();
  tl.mark(it, wait_end);
  s.local();
  tl.mark(it, local_end);
  s.remote();
  tl.mark(it, remote_end);
  s.swap();
}

}  // namespace desync
