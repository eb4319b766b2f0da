#pragma once
// The ChebFD kernels of chebfd_kernels.hpp on SELL-C-sigma (matrix/sell_matrix.hpp), a chunk of
// C rows per work item on a host. What the SIMD lanes run depends on the block width:
// - nb = 2 .. sell_rows_widest: a row's block columns, as CRS does (u(col * nb + k) for
//   consecutive k are contiguous), the chunk's rows one after the other (lane_product, entries C
//   apart), a register group of columns at a time; the width fixed at compile time for
//   nb = 2, 4, 8 (with_fixed_width);
// - nb = 1 (and wider blocks): the chunk's C rows (chunk_lanes_product), column after column,
//   the C sums independent so they do not wait on each other's additions as one CRS row's do
//   (SELL's point at nb = 1).
// Measured on TOPI (docs/method.md section 15), against the CRS step: the rows over the lanes
// 1.37x at nb = 4, 1.6x at 8, 1.2-1.5x at 16 and 32; the columns over them 0.98x, 1.13x and
// 0.82x at nb = 4, 8, 16-32. Dropped: a chunk's register groups one after the other (each over
// all rows), 1.2-1.4x the old kernel's time at nb = 16 and 32, and one pass over the entries for
// all C x nb sums, slower than the old kernel too (they do not fit a core's registers).
// Each element's product sums the row's entries in CRS order, so w and x are bitwise those of
// the CRS kernels; the dots are summed per chunk first (per column over the chunk's lanes in
// order, then once into the sums, whatever the lanes run), so they differ from CRS by rounding.
#include <string>

#include "workloads/chebfd/chebfd_kernels.hpp"
#include "matrix/sell_matrix.hpp"

namespace desync::chebfd {

// acc[l] = (H u)_{row of lane l, k} over the chunk's stored entries (padding adds 0 * u(k)).
template <int C, class T>
KOKKOS_INLINE_FUNCTION void chunk_lanes_product(const LocalColumns& col, const Values<T>& val, const Values<T>& u, std::size_t o,
                                                std::size_t width, int nb, int k, T* acc) {
  for (int l = 0; l < C; ++l) acc[l] = T(0.0);
  for (std::size_t j = 0; j < width; ++j)
    for (int l = 0; l < C; ++l) acc[l] += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
}

// acc[q] = (H u)_{row, k0 + q} for q < m over the row's stored entries o, o + C, ... (the lane
// of a chunk, o including the lane; padding adds 0 * u(k0 + q)). M: the register group; m < M
// only for a runtime width's last group (m == M is a constant where the width is fixed).
template <int C, int M, class T>
KOKKOS_INLINE_FUNCTION void lane_product(const LocalColumns& col, const Values<T>& val, const Values<T>& u, std::size_t o,
                                         std::size_t width, int nb, int k0, int m, T* acc) {
  for (int q = 0; q < M; ++q) acc[q] = T(0.0);
  if (m == M) {  // the M sums in registers, the loop unrolled
    for (std::size_t j = 0; j < width; ++j) {
      const T v = val(o + j * C);
      const std::size_t c = static_cast<std::size_t>(col(o + j * C)) * nb + k0;
      for (int q = 0; q < M; ++q) acc[q] += v * u(c + q);
    }
    return;
  }
  for (std::size_t j = 0; j < width; ++j) {
    const T v = val(o + j * C);
    const std::size_t c = static_cast<std::size_t>(col(o + j * C)) * nb + k0;
    for (int q = 0; q < m; ++q) acc[q] += v * u(c + q);
  }
}

// The widest block whose rows a chunk kernel walks one after the other (its sums' buffer is
// sized for it); wider blocks run column after column. The kernels take it as a template
// parameter (Widest) so a test can force the column walk (Widest = 1) at any width and compare
// the two orders' bits; the program always runs sell_rows_widest.
inline constexpr int sell_rows_widest = 64;

// NON-SPLIT and PIPELINE: the fused step (Fused) on chunks; columns in [0, rows + halo). Work
// item i is chunk i (chunk_per_item, the host's) or lane i % C of chunk i / C (row_per_item, the
// GPU's: consecutive items read consecutive entries of the column-major chunk, coalesced). Each
// element sums its row's entries in CRS order under both, so w and x are bitwise the same; the
// dots are summed per chunk or per row, which rounds differently.
template <class T, bool Init, int C, int NB = 0, SellMapping M = SellMapping::chunk_per_item, int Widest = sell_rows_widest>
struct SellFused {
  static_assert(Widest >= 1 && Widest <= sell_rows_widest, "the chunk's sums buffer holds sell_rows_widest columns");
  using value_type = double[];
  unsigned value_count;
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w, x;
  std::size_t x_off;
  int nb;
  Step s;

  template <int N>  // the same step with the block width fixed at compile time (as Fused::fixed)
  SellFused<T, Init, C, N, M, Widest> fixed() const {
    return {value_count, chunk_ptr, row_of, col, val, u, w, x, x_off, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type sum) const {
    const int n = NB > 0 ? NB : nb;
    if constexpr (M == SellMapping::row_per_item) {
      const std::int32_t r = row_of(static_cast<std::size_t>(i));
      if (r < 0) return;  // a padding lane: nothing to compute, nothing to add
      const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, l = static_cast<std::size_t>(i % C);
      for (int k = 0; k < n; ++k) {
        T acc = T(0.0);
        for (std::size_t j = 0; j < width; ++j) acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * n + k);
        const std::size_t e = static_cast<std::size_t>(r) * n + k;
        tail<T, Init>(s, acc, u(e), w(e), x(x_off + e), sum, k, n);
      }
      return;
    }
    constexpr int R = Traits<T>::R;
    const std::int64_t c = i;
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    if (n > 1 && n <= Widest) {  // the lanes over a row's block columns, row by row
      constexpr int G = group_of<T, NB>;
      static_assert(NB % G == 0, "a fixed block width is a multiple of its register group");
      double part[(R + 1) * (NB > 0 ? NB : sell_rows_widest)];  // this chunk's sums, laid out as sum's
      for (int p = 0; p < (R + 1) * n; ++p) part[p] = 0.0;
      for (int l = 0; l < C; ++l) {
        const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
        if (r < 0) continue;
        const std::size_t e = static_cast<std::size_t>(r) * n;
        for (int k0 = 0; k0 < n; k0 += G) {  // the row's entries again for each group, from L1
          const int m = NB > 0 ? G : (n - k0 < G ? n - k0 : G);
          T acc[G];
          lane_product<C, G>(col, val, u, o + l, width, n, k0, m, acc);
          for (int q = 0; q < m; ++q)
            tail<T, Init>(s, acc[q], u(e + k0 + q), w(e + k0 + q), x(x_off + e + k0 + q), part, k0 + q, n);
        }
      }
      for (int p = 0; p < (R + 1) * n; ++p) sum[p] += part[p];
    } else {  // nb = 1 or wider than Widest: the lanes over the rows, column after column
      for (int k = 0; k < n; ++k) {
        T acc[C];
        chunk_lanes_product<C>(col, val, u, o, width, n, k, acc);
        double part[R + 1] = {};  // this chunk's eta_k (R slots) and mu_k, added to sum once
        for (int l = 0; l < C; ++l) {
          const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
          if (r < 0) continue;
          const std::size_t e = static_cast<std::size_t>(r) * n + k;
          tail<T, Init>(s, acc[l], u(e), w(e), x(x_off + e), part, 0, 1);
        }
        for (int p = 0; p < R; ++p) sum[k * R + p] += part[p];
        sum[n * R + k] += part[R];
      }
    }
  }
};

// SPLIT-WAIT, first part (LocalPart) on chunks of the local columns: w = a (H_local u) + b u [- w];
// work items, NB and Widest as in SellFused.
template <class T, bool Init, int C, SellMapping M = SellMapping::chunk_per_item, int NB = 0, int Widest = sell_rows_widest>
struct SellLocalPart {
  static_assert(Widest >= 1 && Widest <= sell_rows_widest, "as SellFused's");
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w;
  int nb;
  Step s;

  template <int N>
  SellLocalPart<T, Init, C, M, N, Widest> fixed() const {
    return {chunk_ptr, row_of, col, val, u, w, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if constexpr (M == SellMapping::row_per_item) {
      const std::int32_t r = row_of(static_cast<std::size_t>(i));
      if (r < 0) return;
      const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, l = static_cast<std::size_t>(i % C);
      for (int k = 0; k < nb; ++k) {
        T acc = T(0.0);
        for (std::size_t j = 0; j < width; ++j) acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
        const std::size_t e = static_cast<std::size_t>(r) * nb + k;
        if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
        else w(e) = s.a * acc + s.b * u(e) - w(e);
      }
      return;
    }
    const int n = NB > 0 ? NB : nb;
    const std::int64_t c = i;
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    if (n > 1 && n <= Widest) {  // row by row, as SellFused's
      constexpr int G = group_of<T, NB>;
      static_assert(NB % G == 0, "a fixed block width is a multiple of its register group");
      for (int l = 0; l < C; ++l) {
        const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
        if (r < 0) continue;
        const std::size_t e = static_cast<std::size_t>(r) * n;
        for (int k0 = 0; k0 < n; k0 += G) {
          const int m = NB > 0 ? G : (n - k0 < G ? n - k0 : G);
          T acc[G];
          lane_product<C, G>(col, val, u, o + l, width, n, k0, m, acc);
          for (int q = 0; q < m; ++q) {
            if constexpr (Init) w(e + k0 + q) = s.a * acc[q] + s.b * u(e + k0 + q);
            else w(e + k0 + q) = s.a * acc[q] + s.b * u(e + k0 + q) - w(e + k0 + q);
          }
        }
      }
    } else {  // column after column, as SellFused's
      for (int k = 0; k < n; ++k) {
        T acc[C];
        chunk_lanes_product<C>(col, val, u, o, width, n, k, acc);
        for (int l = 0; l < C; ++l) {
          const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
          if (r < 0) continue;
          const std::size_t e = static_cast<std::size_t>(r) * n + k;
          if constexpr (Init) w(e) = s.a * acc[l] + s.b * u(e);
          else w(e) = s.a * acc[l] + s.b * u(e) - w(e);
        }
      }
    }
  }
};

// Work items of chunks [begin, end) under a mapping: a chunk each, or a row (lane) each.
template <SellMapping M, int C, class Space>
Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> sell_items(std::int64_t begin, std::int64_t end) {
  constexpr std::int64_t per_chunk = M == SellMapping::row_per_item ? C : 1;
  return {begin * per_chunk, end * per_chunk};
}

// Chunks [begin, end) of the fused step, its sums added into out like reduce_rows (chunk begin
// 0 writes out directly); the chunk height fixed at compile time, chosen once per launch.
template <class T, bool Init, class Space = ExecSpace, SellMapping M = sell_mapping_for<Space>>
void reduce_sell_fused(const std::string& label, std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, unsigned value_count,
                       const Values<T>& u, const Values<T>& w, const Values<T>& x, std::size_t x_off, int nb, const Step& st,
                       double* out, double* scratch) {
  double* dst = begin == 0 ? out : scratch;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> r(dst, value_count);
  with_chunk(a.chunk, [&](auto c) {
    constexpr int C = decltype(c)::value;
    const auto p = sell_items<M, C, Space>(begin, end);
    const SellFused<T, Init, C, 0, M> f{value_count, a.chunk_ptr, a.row_of, a.col, a.val, u, w, x, x_off, nb, st};
    // The block width fixed at compile time, as for CRS (reduce_fused): the common widths on a
    // host's chunk mapping, nb = 1 on the row mapping (tests force it on a host; a GPU's own).
    if constexpr (M == SellMapping::chunk_per_item)
      with_fixed_width<Space>(f, [&](const auto& g) { Kokkos::parallel_reduce(label, p, g, r); });
    else if (nb == 1)
      Kokkos::parallel_reduce(label, p, f.template fixed<1>(), r);
    else
      Kokkos::parallel_reduce(label, p, f, r);
  });
  if (begin != 0)
    for (unsigned k = 0; k < value_count; ++k) out[k] += scratch[k];
}

template <class T, bool Init, SellMapping M = sell_mapping_for<ExecSpace>>
void sell_local_part(std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, const Values<T>& u, const Values<T>& w,
                     int nb, const Step& st) {
  with_chunk(a.chunk, [&](auto c) {
    constexpr int C = decltype(c)::value;
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string local_sell_label = "desync::chebfd::local_sell";
    const auto p = sell_items<M, C, ExecSpace>(begin, end);
    const SellLocalPart<T, Init, C, M> f{a.chunk_ptr, a.row_of, a.col, a.val, u, w, nb, st};
    if constexpr (M == SellMapping::chunk_per_item)  // the block width fixed at compile time, as SellFused's
      with_fixed_width<ExecSpace>(f, [&](const auto& g) { Kokkos::parallel_for(local_sell_label, p, g); });
    else
      Kokkos::parallel_for(local_sell_label, p, f);
  });
}

// The item mapping's SELL reduction is compiled once per (T, Init, SELL mapping) for the build's
// space, in chebfd_item_mapping_*.cpp (chebfd_element_kernels.hpp says why), not in every unit
// that calls it (the filter, test_sell_mapping, test_chebfd_elements, bench_chebfd).
#define DESYNC_CHEBFD_SELL_REDUCTION(EXTERN, T, INIT, M)                                                           \
  EXTERN template void reduce_sell_fused<T, INIT, ExecSpace, M>(                                                   \
      const std::string&, std::int64_t, std::int64_t, const SellMatrix<T>&, unsigned, const Values<T>&, const Values<T>&, \
      const Values<T>&, std::size_t, int, const Step&, double*, double*);
// F(EXTERN, T, INIT, M) for Init false and true (the filter's first step and the others).
#define DESYNC_CHEBFD_FOR_INIT(F, EXTERN, T, M) F(EXTERN, T, false, M) F(EXTERN, T, true, M)

DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, extern, double, SellMapping::chunk_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, extern, double, SellMapping::row_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, extern, Complex, SellMapping::chunk_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, extern, Complex, SellMapping::row_per_item)

}  // namespace desync::chebfd
