#include "spmv/spmv_state.hpp"

#include <KokkosSparse_spmv.hpp>

#include "spmv/spmv_kernels.hpp"

namespace desync {
namespace {
using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
}

void SpmvState::local() {
  if (kernel == SpmvKernel::kokkoskernels) {
    KokkosSparse::spmv("N", 1.0, a.kk_local, Kokkos::subview(x, std::make_pair(0, a.rows)), 0.0,
                       Kokkos::subview(y, std::make_pair(0, a.rows)));
  } else {
    Kokkos::parallel_for("desync::spmv::local", RowPolicy(0, a.rows),
                         spmv::LocalProduct{a.local.row_ptr, a.local.col, a.local.val, x, y});
  }
  ExecSpace().fence();
}

void SpmvState::remote() {
  if (a.remote.nnz == 0) return;
  if (kernel == SpmvKernel::kokkoskernels) {
    KokkosSparse::spmv("N", 1.0, a.kk_remote, Kokkos::subview(x, std::make_pair(a.rows, a.rows + a.halo)), 1.0,
                       Kokkos::subview(y, std::make_pair(0, a.rows)));
  } else {
    Kokkos::parallel_for("desync::spmv::remote", RowPolicy(0, a.rows),
                         spmv::RemoteUpdate{a.remote.row_ptr, a.remote.col, a.remote.val, x, y, a.rows});
  }
  ExecSpace().fence();
}

std::vector<std::string> spmv_event_names(SpmvScheme scheme) {
  if (scheme == SpmvScheme::nonsplit)
    return {"begin", "pack_end", "post_end", "wait_end", "local_end", "remote_end", "delay_end", "sync_end"};
  return {"begin", "pack_end", "post_end", "local_end", "wait_end", "remote_end", "delay_end", "sync_end"};
}

}  // namespace desync
