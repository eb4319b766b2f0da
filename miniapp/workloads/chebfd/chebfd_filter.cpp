// ChebFD filter: setup, start block, the NON-SPLIT and SPLIT-WAIT block loops (degree loop inside
// the block loop, papers.md A.3.4) and the single reduction of the moments. PIPELINE is in
// chebfd_pipeline.cpp.
#include "workloads/chebfd/chebfd_filter.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "kokkos_compat/labelled_fill.hpp"
#include "workloads/chebfd/chebfd_sell_kernels.hpp"
#include "comm/overlap.hpp"

namespace desync::chebfd {
namespace {

using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
constexpr int begin = 0, pack_end = 1, post_end = 2, ns_wait_end = 3, fused_end = 4;  // NON-SPLIT, PIPELINE
constexpr int sw_local_end = 3, sw_wait_end = 4, remote_end = 5;  // SPLIT-WAIT (then delay_end, sync_end)

template <class T>
struct StartBlock {
  Values<T> u;
  GlobalIndex first, col0;
  int nb;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    for (int k = 0; k < nb; ++k) {
      const std::size_t e = static_cast<std::size_t>(i) * nb + k;
      if constexpr (std::is_same_v<T, double>) u(e) = start_re(first + i, col0 + k);
      else u(e) = T(start_re(first + i, col0 + k), start_im(first + i, col0 + k));
    }
  }
};

// Local (col < rows) or remote (col >= rows, renumbered from 0) entries of m.
}  // namespace

std::vector<std::string> event_names(ChebfdScheme scheme) {
  if (scheme == ChebfdScheme::splitwait)
    return {"begin", "pack_end", "post_end", "local_end", "wait_end", "remote_end", "delay_end", "sync_end"};
  return {"begin", "pack_end", "post_end", "wait_end", "fused_end", "delay_end", "sync_end"};
}

template <class T>
Filter<T>::Filter(LocalMatrix<T> m, const HaloPlan& plan, const ChebfdConfig& c, const Scaling& s,
                  std::vector<double> gc, const Communicators& comms, const CommConfig& opt, const SellParams* sell)
    : rows(m.rows),
      halo(m.halo()),
      first_row(m.first_row),
      c_(c),
      s_(s),
      gc_(std::move(gc)),
      comm_(comms.base()),
      nb_(static_cast<int>(c.nb)),
      np_(static_cast<int>(c.np)),
      blocks_(static_cast<int>(c.ns / c.nb)),
      value_count_(static_cast<unsigned>(nb_ * (Traits<T>::R + 1))),
      halo_ex_(plan, m.rows, comms, opt, nb_, Channel::block_halo) {
  if (c.scheme == ChebfdScheme::splitwait) {
    LocalRemote<T> parts = split_local_remote(m, "desync::chebfd");
    local_ = std::move(parts.local);
    remote_ = std::move(parts.remote);
    if (sell) {
      sell_ = make_sell(local_.row_ptr, local_.col, local_.val, rows, sell->chunk, sell->sigma, "desync::chebfd::local");
      local_ = Crs<T>{};  // the SELL copy is what the local kernel reads
    }
  } else if (sell) {
    sell_ = make_sell(m.row_ptr, m.col, m.val, rows, sell->chunk, sell->sigma, "desync::chebfd::full");
  } else {
    full_ = Crs<T>{m.row_ptr, m.col, m.val};
  }
  // Everything the steps need chosen once: the scheme's product, the format's kernels.
  product_ = c.scheme == ChebfdScheme::splitwait ? &Filter::product_split : &Filter::product_whole;
  if (sell_) {
    fused_fn_[0] = &Filter::fused<false, true>;
    fused_fn_[1] = &Filter::fused<true, true>;
    local_fn_[0] = &Filter::local_part<false, true>;
    local_fn_[1] = &Filter::local_part<true, true>;
    items_ = sell_->chunks;
  } else {
    fused_fn_[0] = &Filter::fused<false, false>;
    fused_fn_[1] = &Filter::fused<true, false>;
    local_fn_[0] = &Filter::local_part<false, false>;
    local_fn_[1] = &Filter::local_part<true, false>;
    items_ = rows;
  }
  x = Values<T>("desync::chebfd::x", static_cast<std::size_t>(rows) * static_cast<std::size_t>(c.ns));
  sums_ = Sums("desync::chebfd::moment_sums", static_cast<std::size_t>(blocks_) * np_ * value_count_);
  sums_host_.assign(sums_.extent(0), 0.0);
  partial_.assign(value_count_, 0.0);
  if constexpr (block_mapping_for<ExecSpace> == BlockMapping::element_per_thread) col_sums_ = ColumnSums<ExecSpace>(nb_, Traits<T>::R);
}

template <class T>
std::int64_t Filter<T>::iterations() const {
  return c_.scheme == ChebfdScheme::pipeline ? np_ - 1 : static_cast<std::int64_t>(blocks_) * (np_ - 1);
}

template <class T>
void Filter<T>::start(const Values<T>& u, int b) {
  Kokkos::parallel_for("desync::chebfd::start", RowPolicy(0, rows),
                       StartBlock<T>{u, first_row, static_cast<GlobalIndex>(b) * nb_, nb_});
  ExecSpace().fence();
}

// The coefficients of degree step p (p = 1: the init).
template <class T>
Step Filter<T>::step_of(int p) const {
  return p == 1 ? Step{s_.alpha, s_.beta, gc_[1], gc_[0]} : Step{2 * s_.alpha, 2 * s_.beta, gc_[static_cast<std::size_t>(p)], 0};
}

// Both schemes start a step alike: pack u's halo entries and post the exchange.
template <class T>
void Filter<T>::post_halo(const Values<T>& u, Timeline* tl, std::int64_t it) {
  if (tl) tl->mark(it, begin);
  halo_ex_.pack(u);
  if (tl) tl->mark(it, pack_end);
  halo_ex_.post(u);
  if (tl) tl->mark(it, post_end);
}

// NON-SPLIT (and PIPELINE's init): exchange, then one fused kernel over all rows; tl == nullptr:
// not recorded (the init).
template <class T>
void Filter<T>::product_whole(const Values<T>& u, const Values<T>& w, int b, int p, Timeline* tl, std::int64_t it) {
  auto mark = [&](int e) { if (tl) tl->mark(it, e); };
  const bool init = p == 1;
  const Step st = step_of(p);
  const std::size_t x_off = static_cast<std::size_t>(b) * rows * nb_;
  post_halo(u, tl, it);
  halo_ex_.wait();
  mark(ns_wait_end);
  (this->*fused_fn_[init])(u, w, x_off, st, 0, items(), slot(b, p));
  mark(fused_end);
}

// SPLIT-WAIT: the local part while the halo travels, then the remote part.
template <class T>
void Filter<T>::product_split(const Values<T>& u, const Values<T>& w, int b, int p, Timeline* tl, std::int64_t it) {
  auto mark = [&](int e) { if (tl) tl->mark(it, e); };
  const bool init = p == 1;
  const Step st = step_of(p);
  const std::size_t x_off = static_cast<std::size_t>(b) * rows * nb_;
  post_halo(u, tl, it);
  // The messages travel meanwhile; progress = "test" cuts the rows into chunks (comm/overlap.hpp).
  const LocalFn local = local_fn_[init];
  overlap_exchange(halo_ex_.exchange(), items(), [&](std::int64_t b0, std::int64_t e0) {
    (this->*local)(u, w, st, b0, e0);
    ExecSpace().fence();
  });
  mark(sw_local_end);
  halo_ex_.wait();
  mark(sw_wait_end);
  const std::size_t h = static_cast<std::size_t>(rows) * nb_;
  static const std::string remote_label = "desync::chebfd::remote";  // once, as fused()'s
  if (init) remote_rows(remote_label, 0, rows, RemoteTail<T, true>{value_count_, remote_.row_ptr, remote_.col, remote_.val, u, w, x, x_off, h, nb_, st}, col_sums_, slot(b, p), partial_.data());
  else remote_rows(remote_label, 0, rows, RemoteTail<T, false>{value_count_, remote_.row_ptr, remote_.col, remote_.val, u, w, x, x_off, h, nb_, st}, col_sums_, slot(b, p), partial_.data());
  mark(remote_end);
}

template <class T>
template <bool Init, bool Sell>
void Filter<T>::fused(const Values<T>& u, const Values<T>& w, std::size_t x_off, const Step& st, std::int64_t b0,
                      std::int64_t e0, double* out) {
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string label = Init ? "desync::chebfd::init" : "desync::chebfd::fused";
  if constexpr (Sell)
    fused_chunks<T, Init>(label, b0, e0, *sell_, value_count_, u, w, x, x_off, nb_, st, col_sums_, out, partial_.data());
  else
    fused_rows(label, b0, e0, Fused<T, Init>{value_count_, full_.row_ptr, full_.col, full_.val, u, w, x, x_off, nb_, st},
               col_sums_, out, partial_.data());
}

template <class T>
template <bool Init, bool Sell>
void Filter<T>::local_part(const Values<T>& u, const Values<T>& w, const Step& st, std::int64_t b0, std::int64_t e0) {
  if constexpr (Sell)
    local_chunks<T, Init>(b0, e0, *sell_, u, w, nb_, st);
  else
    local_rows(b0, e0, LocalPart<T, Init>{local_.row_ptr, local_.col, local_.val, u, w, nb_, st});
}

template <class T>
int Filter<T>::run(Timeline& tl, ExperimentLoop& loop) {
  // The kernels add into the sums: a second run (compare_barrier) starts from zero as the first.
  static const std::string zero_label = "desync::chebfd::zero_sums";
  compat::labelled_fill(zero_label, sums_, 0.0);
  const int signal = c_.scheme == ChebfdScheme::pipeline ? run_pipeline(tl, loop) : run_blocks(tl, loop);
  reduce_moments();
  return signal;
}

template <class T>
int Filter<T>::run_blocks(Timeline& tl, ExperimentLoop& loop) {
  // One cell per block: its start vector and the untimed init product, then its degree steps
  // 2..np, each one iteration of the loop (the loop adds the delay slot and the sync).
  const std::size_t n = (static_cast<std::size_t>(rows) + halo) * nb_;
  Values<T> u("desync::chebfd::u", n), w("desync::chebfd::w", n);
  const std::int64_t steps = np_ - 1;
  return loop.run_cells(
      blocks_, steps,
      [&](std::int64_t b) {
        start(u, static_cast<int>(b));
        product(u, w, static_cast<int>(b), 1, nullptr, 0);
      },
      [&](std::int64_t it) {
        std::swap(u, w);  // u = T_{p-1} x, w = T_{p-2} x
        product(u, w, static_cast<int>(it / steps), static_cast<int>(it % steps) + 2, &tl, it);
      },
      [](std::int64_t, bool) {});
}

template <class T>
void Filter<T>::reduce_moments() {
  // The one copy from where the kernels wrote (device memory on a GPU) and the run's one global
  // reduction: all moments of all blocks.
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(sums_host_.data(), sums_host_.size()), sums_);
  MPI_Allreduce(MPI_IN_PLACE, sums_host_.data(), static_cast<int>(sums_host_.size()), MPI_DOUBLE, MPI_SUM, comm_);
  moments = Moments{np_, nb_, blocks_, {}, {}, {}};
  const std::size_t n = static_cast<std::size_t>(blocks_) * np_ * nb_;
  moments.eta_re.assign(n, 0.0);
  moments.eta_im.assign(n, 0.0);
  moments.mu.assign(n, 0.0);
  constexpr int R = Traits<T>::R;
  for (int b = 0; b < blocks_; ++b)
    for (int p = 1; p <= np_; ++p)
      for (int k = 0; k < nb_; ++k) {
        const double* sl = host_slot(b, p);
        const std::size_t e = (static_cast<std::size_t>(b) * np_ + p - 1) * nb_ + k;
        moments.eta_re[e] = sl[k * R];
        if (R == 2) moments.eta_im[e] = sl[k * R + 1];
        moments.mu[e] = sl[nb_ * R + k];
      }
}

template class Filter<double>;
template class Filter<Complex>;

}  // namespace desync::chebfd
