#pragma once
// The ChebFD kernels of chebfd_kernels.hpp on SELL-C-sigma (matrix/sell_matrix.hpp): one chunk
// of C rows per work item, block column k outside, the C lane sums inside (independent, so they
// do not wait on each other's additions as one CRS row's do). The chunk's entries are loaded
// from memory for k = 0 and from L1 for the other columns (C x width x 12 B, a few KiB).
// Each element's product sums the row's entries in CRS order, so w and x are bitwise those of
// the CRS kernels; the dots are summed per chunk first, so they differ by rounding.
#include "chebfd/chebfd_kernels.hpp"
#include "matrix/sell_matrix.hpp"
#include "spmv/spmv_sell_kernel.hpp"

namespace desync::chebfd {

// acc[l] = (H u)_{row of lane l, k} over the chunk's stored entries (padding adds 0 * u(k)).
template <int C, class T>
KOKKOS_INLINE_FUNCTION void chunk_product(const LocalColumns& col, const Values<T>& val, const Values<T>& u, std::size_t o,
                                          std::size_t width, int nb, int k, T* acc) {
  for (int l = 0; l < C; ++l) acc[l] = T(0.0);
  for (std::size_t j = 0; j < width; ++j)
    for (int l = 0; l < C; ++l) acc[l] += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
}

// NON-SPLIT and PIPELINE: the fused step (Fused) on chunks; columns in [0, rows + halo).
template <class T, bool Init, int C, int NB = 0>
struct SellFused {
  using value_type = double[];
  unsigned value_count;
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w, x;
  std::size_t x_off;
  int nb;
  Step s;

  template <int N>  // the same step with the block width fixed at compile time (as Fused::fixed)
  SellFused<T, Init, C, N> fixed() const {
    return {value_count, chunk_ptr, row_of, col, val, u, w, x, x_off, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t c, value_type sum) const {
    constexpr int R = Traits<T>::R;
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    const int n = NB > 0 ? NB : nb;
    for (int k = 0; k < n; ++k) {
      T acc[C];
      chunk_product<C>(col, val, u, o, width, n, k, acc);
      double part[R + 1] = {};  // this chunk's eta_k (R slots) and mu_k, added to sum once
      for (int l = 0; l < C; ++l) {
        const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
        if (r < 0) continue;
        const std::size_t e = static_cast<std::size_t>(r) * n + k;
        tail<T, Init>(s, acc[l], u(e), w(e), x(x_off + e), part, 0, 1);
      }
      for (int q = 0; q < R; ++q) sum[k * R + q] += part[q];
      sum[n * R + k] += part[R];
    }
  }
};

// SPLIT-WAIT, first part (LocalPart) on chunks of the local columns: w = a (H_local u) + b u [- w].
template <class T, bool Init, int C>
struct SellLocalPart {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t c) const {
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    for (int k = 0; k < nb; ++k) {
      T acc[C];
      chunk_product<C>(col, val, u, o, width, nb, k, acc);
      for (int l = 0; l < C; ++l) {
        const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
        if (r < 0) continue;
        const std::size_t e = static_cast<std::size_t>(r) * nb + k;
        if constexpr (Init) w(e) = s.a * acc[l] + s.b * u(e);
        else w(e) = s.a * acc[l] + s.b * u(e) - w(e);
      }
    }
  }
};

// The GPU mapping of the two kernels above (spmv::SellRowProduct): one work item per row of a
// chunk, lane l of chunk c = item c * C + l, coalesced loads of the column-major chunk. Each
// element sums its row's entries in CRS order, so w and x are bitwise those of the chunk mapping
// (and of CRS); the dots are summed per row, so they differ from the chunk mapping's by rounding.
template <class T, bool Init, int C, int NB = 0>
struct SellRowFused {
  using value_type = double[];
  unsigned value_count;
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w, x;
  std::size_t x_off;
  int nb;
  Step s;

  template <int N>
  SellRowFused<T, Init, C, N> fixed() const {
    return {value_count, chunk_ptr, row_of, col, val, u, w, x, x_off, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type sum) const {
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    if (r < 0) return;  // a padding lane: nothing to compute, nothing to add
    const std::int64_t c = i / C;
    const int l = static_cast<int>(i % C);
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    const int n = NB > 0 ? NB : nb;
    for (int k = 0; k < n; ++k) {
      T acc = T(0.0);
      for (std::size_t j = 0; j < width; ++j)
        acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * n + k);
      const std::size_t e = static_cast<std::size_t>(r) * n + k;
      tail<T, Init>(s, acc, u(e), w(e), x(x_off + e), sum, k, n);
    }
  }
};

template <class T, bool Init, int C>
struct SellRowLocalPart {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    if (r < 0) return;
    const std::int64_t c = i / C;
    const int l = static_cast<int>(i % C);
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    for (int k = 0; k < nb; ++k) {
      T acc = T(0.0);
      for (std::size_t j = 0; j < width; ++j)
        acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
      const std::size_t e = static_cast<std::size_t>(r) * nb + k;
      if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
      else w(e) = s.a * acc + s.b * u(e) - w(e);
    }
  }
};

using spmv::SellMapping;
using spmv::sell_mapping_for;

// Chunks [begin, end) of the fused step, its sums added into out like reduce_rows (chunk begin
// 0 writes out directly); the chunk height fixed at compile time, chosen once per launch.
template <class T, bool Init, class Space = ExecSpace, SellMapping M = sell_mapping_for<Space>>
void reduce_sell_fused(const char* label, std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, unsigned value_count,
                       const Values<T>& u, const Values<T>& w, const Values<T>& x, std::size_t x_off, int nb, const Step& st,
                       double* out, double* scratch) {
  double* dst = begin == 0 ? out : scratch;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> r(dst, value_count);
  with_chunk(a.chunk, [&](auto c) {
    constexpr int C = decltype(c)::value;
    if constexpr (M == SellMapping::row_per_item) {
      const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> p(begin * C, end * C);
      const SellRowFused<T, Init, C> f{value_count, a.chunk_ptr, a.row_of, a.col, a.val, u, w, x, x_off, nb, st};
      if (nb == 1)
        Kokkos::parallel_reduce(label, p, f.template fixed<1>(), r);
      else
        Kokkos::parallel_reduce(label, p, f, r);
    } else {
      const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>> p(static_cast<std::int32_t>(begin),
                                                                         static_cast<std::int32_t>(end));
      const SellFused<T, Init, C> f{value_count, a.chunk_ptr, a.row_of, a.col, a.val, u, w, x, x_off, nb, st};
      if (nb == 1)  // the block width fixed at compile time, as for CRS (reduce_fused)
        Kokkos::parallel_reduce(label, p, f.template fixed<1>(), r);
      else
        Kokkos::parallel_reduce(label, p, f, r);
    }
  });
  if (begin != 0)
    for (unsigned k = 0; k < value_count; ++k) out[k] += scratch[k];
}

template <class T, bool Init, SellMapping M = sell_mapping_for<ExecSpace>>
void sell_local_part(std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, const Values<T>& u, const Values<T>& w,
                     int nb, const Step& st) {
  with_chunk(a.chunk, [&](auto c) {
    constexpr int C = decltype(c)::value;
    if constexpr (M == SellMapping::row_per_item) {
      Kokkos::parallel_for("desync::chebfd::local_sell_rows", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(begin * C, end * C),
                           SellRowLocalPart<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, nb, st});
    } else {
      using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
      Kokkos::parallel_for("desync::chebfd::local_sell", Policy(static_cast<std::int32_t>(begin), static_cast<std::int32_t>(end)),
                           SellLocalPart<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, nb, st});
    }
  });
}

}  // namespace desync::chebfd
