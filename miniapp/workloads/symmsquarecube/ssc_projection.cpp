#include "workloads/symmsquarecube/ssc_projection.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "workloads/symmsquarecube/ssc_input.hpp"
#include "workloads/symmsquarecube/ssc_mesh.hpp"

namespace desync {
namespace {

// out(t) = sum over s < len of D(row0 + t, col0 + s) x(s), and out_abs(t) the same with |D| and
// x_abs: one row per work item, its sum in column order (a deterministic result for a launch).
struct RowTimes {
  BlockBuffer x, x_abs, out, out_abs;
  std::int64_t row0, col0, len, n;
  std::uint64_t seed;
  bool pur;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    double s = 0, a = 0;
    for (std::int64_t k = 0; k < len; ++k) {
      const double d = ssc_entry(row0 + t, col0 + k, n, seed, pur);
      s += d * x(k);
      a += (d < 0 ? -d : d) * x_abs(k);
    }
    out(t) = s;
    out_abs(t) = a;
  }
};

// Compares got (column-major nr x nc) times v with ref, row by row, into out.
void compare(const std::vector<double>& got, const std::vector<double>& v, std::int64_t nr, const std::vector<double>& ref,
             const std::vector<double>& ref_abs, std::int64_t ref0, double tol, SscCheck& out) {
  const std::int64_t nc = static_cast<std::int64_t>(v.size());
  std::vector<double> gv(static_cast<std::size_t>(nr), 0.0);
  for (std::int64_t col = 0; col < nc; ++col)
    for (std::int64_t r = 0; r < nr; ++r) gv[static_cast<std::size_t>(r)] += got[static_cast<std::size_t>(col * nr + r)] * v[static_cast<std::size_t>(col)];
  for (std::int64_t r = 0; r < nr; ++r) {
    const double scale = ref_abs[static_cast<std::size_t>(ref0 + r)];
    const double e = std::abs(gv[static_cast<std::size_t>(r)] - ref[static_cast<std::size_t>(ref0 + r)]);
    out.wrong += !(e <= tol * scale);
    const double rel = scale > 0 ? e / scale : (e == 0 ? 0.0 : std::numeric_limits<double>::infinity());
    out.max_error = std::max(out.max_error, std::isfinite(rel) ? rel : std::numeric_limits<double>::infinity());
  }
  for (double g : got) out.nonfinite += !std::isfinite(g);
  out.checked += nr * nc;
}

}  // namespace

double ssc_projection_weight(std::int64_t g, std::uint64_t seed) {
  // Magnitude in [0.5, 1): a wrong entry cannot hide behind a tiny weight. The pair (g, 2^64 - 1)
  // is none of D's (row, row) pairs.
  const double u = unit_hash(static_cast<std::uint64_t>(g), ~std::uint64_t{0}, seed);
  return u < 0.5 ? -(0.5 + u) : u;
}

SscCheck ssc_projection_check(const SymmSquareCubeConfig& c, std::uint64_t seed, const BlockCut& cut, int i, int j,
                              const std::vector<double>& got2, const std::vector<double>& got3) {
  const std::int64_t n = c.n, r0 = cut.first(i), nr = cut.rows(i), c0 = cut.first(j), nc = cut.rows(j);
  const bool pur = c.input == SscInput::purification;
  std::vector<double> v(static_cast<std::size_t>(nc)), v_abs(v.size());
  for (std::int64_t col = 0; col < nc; ++col) {
    v[static_cast<std::size_t>(col)] = ssc_projection_weight(c0 + col, seed);
    v_abs[static_cast<std::size_t>(col)] = std::abs(v[static_cast<std::size_t>(col)]);
  }
  const auto to_device = [](const std::vector<double>& h, const char* name) {
    BlockBuffer d(std::string(name), h.size());
    Kokkos::deep_copy(d, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()));
    return d;
  };
  const BlockBuffer vd = to_device(v, "desync::ssc::check_v"), vd_abs = to_device(v_abs, "desync::ssc::check_v_abs");
  const auto un = static_cast<std::size_t>(n);
  BlockBuffer y("desync::ssc::check_y", un), y_abs("desync::ssc::check_y_abs", un), z("desync::ssc::check_z", un),
      z_abs("desync::ssc::check_z_abs", un), w("desync::ssc::check_w", static_cast<std::size_t>(nr)),
      w_abs("desync::ssc::check_w_abs", static_cast<std::size_t>(nr));
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  // y = D_{:,j} v, z = D y (D^2 v: z's block-i rows), w = D_{i,:} z (D^3_{i,j} v).
  Kokkos::parallel_for("desync::ssc::check_y", Policy(0, n), RowTimes{vd, vd_abs, y, y_abs, 0, c0, nc, n, seed, pur});
  Kokkos::parallel_for("desync::ssc::check_z", Policy(0, n), RowTimes{y, y_abs, z, z_abs, 0, 0, n, n, seed, pur});
  Kokkos::parallel_for("desync::ssc::check_w", Policy(0, nr), RowTimes{z, z_abs, w, w_abs, r0, 0, n, n, seed, pur});
  const std::vector<double> zh = to_host(z, n), zh_abs = to_host(z_abs, n), wh = to_host(w, nr), wh_abs = to_host(w_abs, nr);
  // To first order the rounding of both sides stays below (4 N + 2 nc) eps <= 6 N eps times the
  // absolute product: the blocks' own (D^3: two sums of N terms, whatever the algorithm's order),
  // the block times v (nc terms), the reference's chain (N, N and nc terms). 16 N eps keeps a
  // margin over that worst case, which sums of random signs stay far below.
  const double tol = 16.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon();
  SscCheck out;
  compare(got2, v, nr, zh, zh_abs, r0, tol, out);
  compare(got3, v, nr, wh, wh_abs, 0, tol, out);
  return out;
}

}  // namespace desync
