// NON-SPLIT (papers.md A.3.3): exchange the halo completely, then compute. Still two kernels,
// local then remote, so both schemes move the same data and give bitwise the same result.
#include "workloads/spmv/spmv_state.hpp"

namespace desync {
namespace {
namespace nonsplit_event {
enum : int { begin, pack_end, post_end, wait_end, local_end, remote_end };
}  // namespace nonsplit_event
}

void nonsplit_iteration(SpmvState& s, Timeline& tl, std::int64_t it) {
  tl.mark(it, nonsplit_event::begin);
  s.halo.pack(s.x);
  tl.mark(it, nonsplit_event::pack_end);
  s.halo.post(s.x);
  tl.mark(it, nonsplit_event::post_end);
  s.halo.wait();
  tl.mark(it, nonsplit_event::wait_end);
  s.local();
  tl.mark(it, nonsplit_event::local_end);
  s.remote();
  tl.mark(it, nonsplit_event::remote_end);
  s.swap();
}

void nonsplit_iteration_without_exchange(SpmvState& s, Timeline& tl, std::int64_t it) {
  for (int e = nonsplit_event::begin; e <= nonsplit_event::wait_end; ++e) tl.mark(it, e);
  s.local();
  tl.mark(it, nonsplit_event::local_end);
  s.remote();
  tl.mark(it, nonsplit_event::remote_end);
  s.swap();
}

}  // namespace desync
