#pragma once
// The ChebFD kernels (matrices.md §7.3) on row-major blocks of nb vectors: element (i, k) of a
// block at i*nb + k, so each matrix entry is loaded once per row and applied to nb contiguous
// values. One work item per row; the per-column dot products are an array reduction with
// Kokkos' default (zero) init and (sum) join: per column k the slots [k*R, k*R + R) hold eta_k
// (R = 1 real, 2 complex) and slot nb*R + k holds mu_k.
//   step (Init = false): w = 2a(H u) + 2b u - w;  eta += conj(u) w;  mu += |u|^2;  x += gc w
//   init (Init = true) : w = a(H u) + b u;        eta, mu as above;   x = g0c0 u + g1c1 w
// (the caller passes 2 alpha, 2 beta for steps and alpha, beta for the init).
#include <string>

#include "core/types.hpp"
#include "kokkos_compat/staging_space.hpp"

namespace desync::chebfd {

template <class T>
struct Traits;
template <>
struct Traits<double> {
  static constexpr int R = 1;
  KOKKOS_INLINE_FUNCTION static void add_dot(double* s, double u, double w) { s[0] += u * w; }
  KOKKOS_INLINE_FUNCTION static double abs2(double u) { return u * u; }
};
template <>
struct Traits<Complex> {
  static constexpr int R = 2;
  KOKKOS_INLINE_FUNCTION static void add_dot(double* s, const Complex& u, const Complex& w) {
    s[0] += u.real() * w.real() + u.imag() * w.imag();  // conj(u) * w
    s[1] += u.real() * w.imag() - u.imag() * w.real();
  }
  KOKKOS_INLINE_FUNCTION static double abs2(const Complex& u) { return u.real() * u.real() + u.imag() * u.imag(); }
};

inline constexpr int chunk = 8;  // block columns accumulated together in registers

// Block columns one row's product keeps in registers at once in the fused step and SELL's chunk
// kernels at nb = 2 to 64: `chunk` doubles, half as many complex values (two doubles each). With 8 complex sums
// the host's fused step spilled them to the stack, its adds waiting on store-to-load forwarding:
// 2x the time of 2 x 4 columns at nb = 8 (docs/method.md section 15); more groups re-read the
// row's entries, from L1. LocalPart keeps `chunk` (8 complex sums stayed in registers there).
template <class T>
inline constexpr int row_group = sizeof(T) > sizeof(double) ? chunk / 2 : chunk;
// The group of a width NB fixed at compile time (the whole width where narrower), else row_group.
template <class T, int NB>
inline constexpr int group_of = NB > 0 && NB < row_group<T> ? NB : row_group<T>;

struct Step {
  double a = 0, b = 0, gc = 0, gc0 = 0;  // gc0: the init's g0c0
};

// The update of element (i, k) once the full product acc = (H u)_ik is known.
template <class T, bool Init>
KOKKOS_INLINE_FUNCTION void tail(const Step& s, const T& acc, const T& u, T& w, T& x, double* sum, int k, int nb) {
  if constexpr (Init) {
    w = s.a * acc + s.b * u;
    x = s.gc0 * u + s.gc * w;
  } else {
    w = s.a * acc + s.b * u - w;
    x += s.gc * w;
  }
  Traits<T>::add_dot(sum + k * Traits<T>::R, u, w);
  sum[nb * Traits<T>::R + k] += Traits<T>::abs2(u);
}

// The product of one row with M block columns k0 .. k0+M-1, M known at compile time, so that
// the inner loop is unrolled into M registers (a runtime M kept it a loop: at nb = 1 the fused
// step ran at half the speed of the composed KokkosKernels calls, docs/method.md section 15).
template <int M, class T>
KOKKOS_INLINE_FUNCTION void row_product(const LocalColumns& col, const Values<T>& val, const Values<T>& u, std::size_t b,
                                        std::size_t e, int nb, int k0, T* acc) {
  for (int q = 0; q < M; ++q) acc[q] = T(0.0);
  for (std::size_t j = b; j < e; ++j) {
    const T v = val(j);
    const std::size_t c = static_cast<std::size_t>(col(j)) * nb + k0;
    for (int q = 0; q < M; ++q) acc[q] += v * u(c + q);
  }
}

// acc[q] = sum over entries j in [b, e) of val(j) * u(col(j) * nb + k0 + q), for q < m: the
// product of one row with block columns k0 .. k0+m-1, in registers (Fused and LocalPart).
template <class T>
KOKKOS_INLINE_FUNCTION void block_row_product(const LocalColumns& col, const Values<T>& val, const Values<T>& u, std::size_t b,
                                              std::size_t e, int nb, int k0, int m, T* acc) {
  switch (m) {  // the same width for every row of a block: perfectly predicted
    case 1: row_product<1>(col, val, u, b, e, nb, k0, acc); break;
    case 2: row_product<2>(col, val, u, b, e, nb, k0, acc); break;
    case 3: row_product<3>(col, val, u, b, e, nb, k0, acc); break;
    case 4: row_product<4>(col, val, u, b, e, nb, k0, acc); break;
    case 5: row_product<5>(col, val, u, b, e, nb, k0, acc); break;
    case 6: row_product<6>(col, val, u, b, e, nb, k0, acc); break;
    case 7: row_product<7>(col, val, u, b, e, nb, k0, acc); break;
    default: row_product<chunk>(col, val, u, b, e, nb, k0, acc); break;
  }
}

// NON-SPLIT and PIPELINE: all entries of a row, then the tail. Columns in [0, rows + halo).
// NB > 0 fixes the block width at compile time (nb must equal it): the column offsets, the
// chunk widths and the reduction slots become constants, which at nb = 1 doubled the step's
// speed (docs/method.md section 15). fixed<N>() gives that variant of a runtime-width functor;
// with_fixed_width() picks it per launch (as for SPLIT-WAIT's LocalPart and RemoteTail).
template <class T, bool Init, int NB = 0>
struct Fused {
  using value_type = double[];
  unsigned value_count;
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val, u, w, x;  // x: this block's part of the filtered search space
  std::size_t x_off;
  int nb;
  Step s;

  template <int N>
  Fused<T, Init, N> fixed() const {
    return {value_count, row_ptr, col, val, u, w, x, x_off, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, value_type sum) const {
    const int n = NB > 0 ? NB : nb;
    const std::size_t b = row_ptr(i), e = row_ptr(i + 1), r = static_cast<std::size_t>(i) * n;
    constexpr int G = row_group<T>;
    if constexpr (NB > 0) {  // groups of M columns, M a compile-time constant dividing NB
      constexpr int M = group_of<T, NB>;
      static_assert(NB % M == 0, "a fixed block width is a multiple of its register group");
      for (int k0 = 0; k0 < NB; k0 += M) {
        T acc[M];
        row_product<M>(col, val, u, b, e, NB, k0, acc);
        for (int q = 0; q < M; ++q)
          tail<T, Init>(s, acc[q], u(r + k0 + q), w(r + k0 + q), x(x_off + r + k0 + q), sum, k0 + q, NB);
      }
    } else {
      for (int k0 = 0; k0 < n; k0 += G) {
        const int m = n - k0 < G ? n - k0 : G;
        T acc[chunk];
        block_row_product(col, val, u, b, e, n, k0, m, acc);
        for (int q = 0; q < m; ++q)
          tail<T, Init>(s, acc[q], u(r + k0 + q), w(r + k0 + q), x(x_off + r + k0 + q), sum, k0 + q, n);
      }
    }
  }
};

// SPLIT-WAIT, first part: w = a (H_local u) + b u [- w], columns in [0, rows). NB as Fused's.
template <class T, bool Init, int NB = 0>
struct LocalPart {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val, u, w;
  int nb;
  Step s;

  template <int N>
  LocalPart<T, Init, N> fixed() const {
    return {row_ptr, col, val, u, w, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const int n = NB > 0 ? NB : nb;
    const std::size_t b = row_ptr(i), e = row_ptr(i + 1), r = static_cast<std::size_t>(i) * n;
    for (int k0 = 0; k0 < n; k0 += chunk) {
      const int m = n - k0 < chunk ? n - k0 : chunk;
      T acc[chunk];
      if constexpr (NB > 0 && NB <= chunk) row_product<NB>(col, val, u, b, e, NB, 0, acc);
      else block_row_product(col, val, u, b, e, n, k0, m, acc);
      for (int q = 0; q < m; ++q) {
        T& wq = w(r + k0 + q);
        if constexpr (Init) wq = s.a * acc[q] + s.b * u(r + k0 + q);
        else wq = s.a * acc[q] + s.b * u(r + k0 + q) - wq;
      }
    }
  }
};

// SPLIT-WAIT, second part, after the wait: w += a (H_remote u_halo) for every row (columns
// relative to the halo), then the dots and the x update of the finished w. In the init the
// x update is x = g0c0 u + g1c1 w. NB as Fused's (each sum in the same order either way).
template <class T, bool Init, int NB = 0>
struct RemoteTail {
  using value_type = double[];
  unsigned value_count;
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val, u, w, x;
  std::size_t x_off, halo_off;  // halo_off = rows * nb
  int nb;
  Step s;

  template <int N>
  RemoteTail<T, Init, N> fixed() const {
    return {value_count, row_ptr, col, val, u, w, x, x_off, halo_off, nb, s};
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, value_type sum) const {
    const int n = NB > 0 ? NB : nb;
    const std::size_t b = row_ptr(i), e = row_ptr(i + 1), r = static_cast<std::size_t>(i) * n;
    for (int k = 0; k < n; ++k) {
      T acc = T(0.0);
      for (std::size_t j = b; j < e; ++j) acc += val(j) * u(halo_off + static_cast<std::size_t>(col(j)) * n + k);
      T& wk = w(r + k);
      if (b != e) wk += s.a * acc;
      T& xk = x(x_off + r + k);
      if constexpr (Init) xk = s.gc0 * u(r + k) + s.gc * wk;
      else xk += s.gc * wk;
      Traits<T>::add_dot(sum + k * Traits<T>::R, u(r + k), wk);
      sum[n * Traits<T>::R + k] += Traits<T>::abs2(u(r + k));
    }
  }
};

// f, or f with its block width fixed at compile time where it is one of the common small widths
// (fixed<N>(): the same numbers, summed in the same order), given to launch. The width is the
// same for every launch of a run, so the switch is perfectly predicted. Host spaces only: a
// device runs the element mapping (chebfd_element_kernels.hpp), its item mapping (tests and
// bench_chebfd only) keeps the runtime width rather than 4 more device kernels per functor.
template <class Space, class F, class Launch>
void with_fixed_width(const F& f, Launch&& launch) {
  if constexpr (!compat::host_accessible<Space>) {
    launch(f);
  } else {
    switch (f.nb) {
      case 1: launch(f.template fixed<1>()); break;
      case 2: launch(f.template fixed<2>()); break;
      case 4: launch(f.template fixed<4>()); break;
      case 8: launch(f.template fixed<8>()); break;
      default: launch(f); break;
    }
  }
}

// The row reduction f over rows [begin, end) added into out (value_count doubles); scratch holds
// one chunk's sums. The pipeline's chunks with progress = "test" use it: a chunked sum rounds
// differently from the one-piece sum (begin = 0 writes out directly), the filtered vectors do not.
// Space: the default execution space; the benchmarks also pass a one-thread host space.
template <class Space = ExecSpace, class F>
void reduce_rows(const std::string& label, std::int64_t begin, std::int64_t end, const F& f, double* out, double* scratch) {
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>;
  double* dst = begin == 0 ? out : scratch;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> r(dst, f.value_count);
  Kokkos::parallel_reduce(label, Policy(static_cast<std::int32_t>(begin), static_cast<std::int32_t>(end)), f, r);
  if (begin != 0)
    for (unsigned k = 0; k < f.value_count; ++k) out[k] += scratch[k];
}

// reduce_rows of a fused step with the block width fixed at compile time where it is one of the
// common small widths (the same numbers as the runtime-width functor, summed in the same order).
template <class Space = ExecSpace, class T, bool Init>
void reduce_fused(const std::string& label, std::int64_t begin, std::int64_t end, const Fused<T, Init>& f, double* out,
                  double* scratch) {
  with_fixed_width<Space>(f, [&](const auto& g) { reduce_rows<Space>(label, begin, end, g, out, scratch); });
}

}  // namespace desync::chebfd
