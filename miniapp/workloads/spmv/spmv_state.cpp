#include "workloads/spmv/spmv_state.hpp"

#include <KokkosSparse_spmv.hpp>

#include "comm/overlap.hpp"
#include "workloads/spmv/spmv_kernels.hpp"
#include "workloads/spmv/spmv_sell_kernel.hpp"

namespace desync {
namespace {
using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
}

void SpmvState::local() {
  if (kernel == SpmvKernel::kokkoskernels) {
    KokkosSparse::spmv("N", 1.0, a.kk_local, Kokkos::subview(x, std::make_pair(0, a.rows)), 0.0,
                       Kokkos::subview(y, std::make_pair(0, a.rows)));
  } else if (sell) {
    // As below, a SELL chunk (C rows) being one work item.
    overlap_exchange(halo.exchange(), sell->chunks, [&](std::int64_t b, std::int64_t e) {
      spmv::sell_product(*sell, x, y, b, e);
      ExecSpace().fence();
    });
  } else {
    // SPLIT-WAIT runs this while the halo travels: with progress = "test", in chunks of rows
    // with an MPI_Testall after each (a row is one work item).
    const spmv::LocalProduct f{a.local.row_ptr, a.local.col, a.local.val, x, y};
    overlap_exchange(halo.exchange(), a.rows, [&](std::int64_t b, std::int64_t e) {
      Kokkos::parallel_for("desync::spmv::local", RowPolicy(static_cast<std::int32_t>(b), static_cast<std::int32_t>(e)), f);
      ExecSpace().fence();
    });
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
