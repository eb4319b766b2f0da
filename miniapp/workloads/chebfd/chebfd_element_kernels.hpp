#pragma once
// The GPU mapping of the ChebFD kernels (docs/method.md section 28): one thread per element
// (item i, block column k) instead of one per item looping over k. Consecutive threads take
// consecutive k of one item, so the block vectors u, w, x (row-major, element (i, k) at i*nb + k)
// are read and written in coalesced runs and the item's matrix entries are one broadcast load;
// at nb = 1 it is a thread per row (CRS) or per SELL lane.
// The per-column dots go through ColumnSums (chebfd_column_sums.hpp), not a Kokkos reduction.
//
// Every item's element sums its row's entries in CRS order, as the host kernels do, so w and x
// are the host mapping's (on a GPU up to nvcc's fused multiply-adds); only the dots round
// differently. The host build keeps one item per work item (chebfd_kernels.hpp); tests force this
// mapping on the host space (tests/unit/test_chebfd_elements.cpp).
#include <string>

#include "matrix/sell_matrix.hpp"
#include "workloads/chebfd/chebfd_column_sums.hpp"
#include "workloads/chebfd/chebfd_kernels.hpp"
#include "workloads/chebfd/chebfd_sell_kernels.hpp"

namespace desync::chebfd {

// The fused step's element (i, k) on CRS (Fused's fields).
template <class T, bool Init>
struct FusedElement {
  using value_type = T;
  Fused<T, Init> f;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    const int nb = f.nb;
    Loaded<T> l;
    l.acc = T(0.0);
    for (std::size_t j = f.row_ptr(i); j < f.row_ptr(i + 1); ++j) l.acc += f.val(j) * f.u(static_cast<std::size_t>(f.col(j)) * nb + k);
    l.e = static_cast<std::size_t>(i) * nb + k;
    l.u = f.u(l.e);
    if constexpr (!Init) {
      l.w = f.w(l.e);
      l.x = f.x(f.x_off + l.e);
    }
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* s) const {
    T w = l.w, x = l.x;
    tail<T, Init>(f.s, l.acc, l.u, w, x, s, 0, 1);
    f.w(l.e) = w;
    f.x(f.x_off + l.e) = x;
  }
};

// SPLIT-WAIT's remote part and tail (RemoteTail's fields) for element (i, k).
template <class T, bool Init>
struct RemoteElement {
  using value_type = T;
  RemoteTail<T, Init> f;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    const int nb = f.nb;
    const std::size_t b = f.row_ptr(i), end = f.row_ptr(i + 1);
    Loaded<T> l;
    l.e = static_cast<std::size_t>(i) * nb + k;
    l.acc = T(0.0);
    for (std::size_t j = b; j < end; ++j) l.acc += f.val(j) * f.u(f.halo_off + static_cast<std::size_t>(f.col(j)) * nb + k);
    l.has = b != end;
    l.u = f.u(l.e);
    l.w = f.w(l.e);  // the local part's result
    if constexpr (!Init) l.x = f.x(f.x_off + l.e);
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* s) const {
    T wk = l.w, xk = l.x;
    if (l.has) wk += f.s.a * l.acc;
    if constexpr (Init) xk = f.s.gc0 * l.u + f.s.gc * wk;
    else xk += f.s.gc * wk;
    f.w(l.e) = wk;
    f.x(f.x_off + l.e) = xk;
    Traits<T>::add_dot(s, l.u, wk);
    s[Traits<T>::R] += Traits<T>::abs2(l.u);
  }
};

// The fused step on SELL-C-sigma for element (slot i, k): slot i is lane i % C of chunk i / C.
template <class T, bool Init, int C>
struct SellFusedElement {
  using value_type = T;
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w, x;
  std::size_t x_off;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION Loaded<T> load(std::int64_t i, int k) const {
    Loaded<T> l;
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    l.live = r >= 0;
    if (!l.live) return l;  // a padding lane
    const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, lane = static_cast<std::size_t>(i % C);
    l.acc = T(0.0);
    for (std::size_t j = 0; j < width; ++j) l.acc += val(o + j * C + lane) * u(static_cast<std::size_t>(col(o + j * C + lane)) * nb + k);
    l.e = static_cast<std::size_t>(r) * nb + k;
    l.u = u(l.e);
    if constexpr (!Init) {
      l.w = w(l.e);
      l.x = x(x_off + l.e);
    }
    return l;
  }
  KOKKOS_INLINE_FUNCTION void store(const Loaded<T>& l, double* sum) const {
    if (!l.live) return;
    T wv = l.w, xv = l.x;
    tail<T, Init>(s, l.acc, l.u, wv, xv, sum, 0, 1);
    w(l.e) = wv;
    x(x_off + l.e) = xv;
  }
};

// SPLIT-WAIT's local part (no sums) as a flat range over elements t = i * nb + k of items
// [b0, e0): LocalPart on CRS, SellLocalPart's lanes on SELL.
template <class T, bool Init>
struct LocalElement {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t i = t / nb;
    const int k = static_cast<int>(t - i * nb);
    T acc = T(0.0);
    for (std::size_t j = row_ptr(i); j < row_ptr(i + 1); ++j) acc += val(j) * u(static_cast<std::size_t>(col(j)) * nb + k);
    const std::size_t e = static_cast<std::size_t>(t);
    if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
    else w(e) = s.a * acc + s.b * u(e) - w(e);
  }
};

template <class T, bool Init, int C>
struct SellLocalElement {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<T> val, u, w;
  int nb;
  Step s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t i = t / nb;
    const int k = static_cast<int>(t - i * nb);
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    if (r < 0) return;
    const std::size_t o = chunk_ptr(i / C), width = (chunk_ptr(i / C + 1) - o) / C, l = static_cast<std::size_t>(i % C);
    T acc = T(0.0);
    for (std::size_t j = 0; j < width; ++j) acc += val(o + j * C + l) * u(static_cast<std::size_t>(col(o + j * C + l)) * nb + k);
    const std::size_t e = static_cast<std::size_t>(r) * nb + k;
    if constexpr (Init) w(e) = s.a * acc + s.b * u(e);
    else w(e) = s.a * acc + s.b * u(e) - w(e);
  }
};

// The kernels with a space's mapping (M: forced by tests), used by the Filter and the benchmark.
// sums: the element mapping's workspace (unused by the item mapping); out: the value_count sums
// in SumsMemory<Space, M> (device memory for the element mapping on a GPU); scratch: host, the
// item mapping's.

// The fused step over rows [begin, end) of f (NON-SPLIT, PIPELINE) on CRS.
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void fused_rows(const std::string& label, std::int64_t begin, std::int64_t end, const Fused<T, Init>& f, const ColumnSums<Space>& sums,
                double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread)
    sums.template reduce<Traits<T>::R>(label, begin, end, FusedElement<T, Init>{f}, out, scratch);
  else
    reduce_fused<Space>(label, begin, end, f, out, scratch);
}

// The fused step over chunks [begin, end) of a on SELL-C-sigma.
template <class T, bool Init, class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>>
void fused_chunks(const std::string& label, std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, unsigned value_count,
                  const Values<T>& u, const Values<T>& w, const Values<T>& x, std::size_t x_off, int nb, const Step& st,
                  const ColumnSums<Space>& sums, double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread) {
    with_chunk(a.chunk, [&](auto c) {
      constexpr int C = decltype(c)::value;
      sums.template reduce<Traits<T>::R>(label, begin * C, end * C,
                                         SellFusedElement<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, x, x_off, nb, st},
                                         out, scratch);
    });
  } else {
    reduce_sell_fused<T, Init, Space>(label, begin, end, a, value_count, u, w, x, x_off, nb, st, out, scratch);
  }
}

// SPLIT-WAIT's remote part and tail over rows [begin, end).
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void remote_rows(const std::string& label, std::int64_t begin, std::int64_t end, const RemoteTail<T, Init>& f, const ColumnSums<Space>& sums,
                 double* out, double* scratch) {
  if constexpr (M == BlockMapping::element_per_thread)
    sums.template reduce<Traits<T>::R>(label, begin, end, RemoteElement<T, Init>{f}, out, scratch);
  else
    with_fixed_width<Space>(f, [&](const auto& g) { reduce_rows<Space>(label, begin, end, g, out, scratch); });
}

// SPLIT-WAIT's local part over rows [begin, end) on CRS.
template <class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>, class T, bool Init>
void local_rows(std::int64_t begin, std::int64_t end, const LocalPart<T, Init>& f) {
  static const std::string label = "desync::chebfd::local";  // once: Kokkos copies a literal per launch
  if constexpr (M == BlockMapping::element_per_thread)
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(begin * f.nb, end * f.nb),
                         LocalElement<T, Init>{f.row_ptr, f.col, f.val, f.u, f.w, f.nb, f.s});
  else
    with_fixed_width<Space>(f, [&](const auto& g) {
      Kokkos::parallel_for(label,
                           Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(static_cast<std::int32_t>(begin),
                                                                                       static_cast<std::int32_t>(end)),
                           g);
    });
}

// SPLIT-WAIT's local part over chunks [begin, end) on SELL-C-sigma.
template <class T, bool Init, class Space = ExecSpace, BlockMapping M = block_mapping_for<Space>>
void local_chunks(std::int64_t begin, std::int64_t end, const SellMatrix<T>& a, const Values<T>& u, const Values<T>& w, int nb,
                  const Step& st) {
  if constexpr (M == BlockMapping::element_per_thread) {
    with_chunk(a.chunk, [&](auto c) {
      constexpr int C = decltype(c)::value;
      // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
      static const std::string local_sell_label = "desync::chebfd::local_sell";
      Kokkos::parallel_for(local_sell_label,
                           Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(begin * C * nb, end * C * nb),
                           SellLocalElement<T, Init, C>{a.chunk_ptr, a.row_of, a.col, a.val, u, w, nb, st});
    });
  } else {
    sell_local_part<T, Init>(begin, end, a, u, w, nb, st);
  }
}

// Each dispatcher above is compiled once per (T, Init, mapping) for the build's space, in
// chebfd_item_mapping_*.cpp and chebfd_element_mapping.cpp, not in every unit that calls it: the
// filter, test_chebfd_elements and bench_chebfd each compiled all of them (both mappings, every
// chunk height), among the heaviest units of the CUDA build (docs/build_cuda.md, "The device half
// as a unity build"). A call with another space or scalar instantiates as usual.
#define DESYNC_CHEBFD_DISPATCHERS(EXTERN, T, INIT, M)                                                                         \
  EXTERN template void fused_rows<ExecSpace, M, T, INIT>(const std::string&, std::int64_t, std::int64_t, const Fused<T, INIT>&,       \
                                                         const ColumnSums<ExecSpace>&, double*, double*);                     \
  EXTERN template void fused_chunks<T, INIT, ExecSpace, M>(                                                                   \
      const std::string&, std::int64_t, std::int64_t, const SellMatrix<T>&, unsigned, const Values<T>&, const Values<T>&,            \
      const Values<T>&, std::size_t, int, const Step&, const ColumnSums<ExecSpace>&, double*, double*);                       \
  EXTERN template void remote_rows<ExecSpace, M, T, INIT>(const std::string&, std::int64_t, std::int64_t, const RemoteTail<T, INIT>&, \
                                                          const ColumnSums<ExecSpace>&, double*, double*);                    \
  EXTERN template void local_rows<ExecSpace, M, T, INIT>(std::int64_t, std::int64_t, const LocalPart<T, INIT>&);             \
  EXTERN template void local_chunks<T, INIT, ExecSpace, M>(std::int64_t, std::int64_t, const SellMatrix<T>&, const Values<T>&, \
                                                           const Values<T>&, int, const Step&);

DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, extern, double, BlockMapping::item_per_thread)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, extern, Complex, BlockMapping::item_per_thread)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, extern, double, BlockMapping::element_per_thread)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, extern, Complex, BlockMapping::element_per_thread)

}  // namespace desync::chebfd
