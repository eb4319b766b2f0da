#include "workloads/spmv/spmv_state.hpp"

#include <limits>
#include <string>
#include <utility>

#include "kokkos_compat/labelled_fill.hpp"
#include "kokkos_compat/sparse_spmv.hpp"

#include "comm/overlap.hpp"
#include "workloads/spmv/spmv_kernels.hpp"
#include "workloads/spmv/spmv_sell_kernel.hpp"

namespace desync {
namespace {
using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;

// The local and remote halves of each kernel, one function each: SpmvState picks two of them
// when it is made, so no product tests the deck's choice.
void local_kokkoskernels(SpmvState& s) {
  KokkosSparse::spmv("N", 1.0, s.a.kk_local, Kokkos::subview(s.x, std::make_pair(0, s.a.rows)), 0.0,
                     Kokkos::subview(s.y, std::make_pair(0, s.a.rows)));
  ExecSpace().fence();
}

template <int C>  // the chunk height, fixed when SpmvState is made
void local_sell(SpmvState& s) {
  // As below, a SELL chunk (C rows) being one work item.
  overlap_exchange(s.halo.exchange(), s.sell->chunks, [&](std::int64_t b, std::int64_t e) {
    spmv::sell_product_c<C>(*s.sell, s.x, s.y, b, e);
    ExecSpace().fence();  // each chunk's kernel done before MPI_Testall: no fence after the last
  });
}

void local_crs(SpmvState& s) {
  // SPLIT-WAIT runs this while the halo travels: with progress = "test", in chunks of rows
  // with an MPI_Testall after each (a row is one work item).
  const spmv::LocalProduct f{s.a.local.row_ptr, s.a.local.col, s.a.local.val, s.x, s.y};
  overlap_exchange(s.halo.exchange(), s.a.rows, [&](std::int64_t b, std::int64_t e) {
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string local_label = "desync::spmv::local";
    Kokkos::parallel_for(local_label, RowPolicy(static_cast<std::int32_t>(b), static_cast<std::int32_t>(e)), f);
    ExecSpace().fence();  // each chunk's kernel done before MPI_Testall: no fence after the last
  });
}

void remote_none(SpmvState&) {}

void remote_kokkoskernels(SpmvState& s) {
  KokkosSparse::spmv("N", 1.0, s.a.kk_remote, Kokkos::subview(s.x, std::make_pair(s.a.rows, s.a.rows + s.a.halo)), 1.0,
                     Kokkos::subview(s.y, std::make_pair(0, s.a.rows)));
  ExecSpace().fence();
}

void remote_crs(SpmvState& s) {
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string remote_label = "desync::spmv::remote";
  Kokkos::parallel_for(remote_label, RowPolicy(0, s.a.rows),
                       spmv::RemoteUpdate{s.a.remote.row_ptr, s.a.remote.col, s.a.remote.val, s.x, s.y, s.a.rows});
  ExecSpace().fence();
}

}  // namespace

void SpmvState::poison_for_check() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t rows = static_cast<std::size_t>(a.rows);
  static const std::string poison_y = "desync::spmv::poison_y", poison_halo = "desync::spmv::poison_halo";
  compat::labelled_fill(poison_y, Kokkos::subview(y, std::make_pair(std::size_t{0}, rows)), nan);
  compat::labelled_fill(poison_halo, Kokkos::subview(x, std::make_pair(rows, x.extent(0))), nan);
  halo.exchange().poison_staged_recv();  // staged: the host buffer the halo is copied in from
}

SpmvState::SpmvState(const SplitMatrix& a_, HaloExchange<Vector>& halo_, SpmvKernel kernel, const SellMatrix<double>* sell_, Vector x_,
                     Vector y_)
    : a(a_), halo(halo_), sell(sell_), x(std::move(x_)), y(std::move(y_)) {
  const bool kk = kernel == SpmvKernel::kokkoskernels;
  local_ = kk ? local_kokkoskernels : local_crs;
  if (!kk && sell) with_chunk(sell->chunk, [&](auto c) { local_ = local_sell<decltype(c)::value>; });
  remote_ = a.remote.nnz == 0 ? remote_none : kk ? remote_kokkoskernels : remote_crs;
}

std::vector<std::string> spmv_event_names(SpmvScheme scheme) {
  if (scheme == SpmvScheme::nonsplit)
    return {"begin", "pack_end", "post_end", "wait_end", "local_end", "remote_end", "delay_end", "sync_end"};
  return {"begin", "pack_end", "post_end", "local_end", "wait_end", "remote_end", "delay_end", "sync_end"};
}

}  // namespace desync
