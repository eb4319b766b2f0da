#include "workloads/symmsquarecube/ssc_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "workloads/symmsquarecube/ssc_input.hpp"

namespace desync {
namespace {

// max |got - ref| / max |ref|; counts entries beyond the tolerance and non-finite ones.
void compare(const std::vector<double>& got, const std::vector<double>& ref, double tol, SscCheck& out) {
  double scale = 0;
  for (double v : ref) scale = std::max(scale, std::abs(v));
  if (scale == 0) scale = 1;
  for (std::size_t x = 0; x < ref.size(); ++x) {
    const double e = std::abs(got[x] - ref[x]) / scale;
    out.nonfinite += !std::isfinite(got[x]);
    out.wrong += !(e <= tol);
    out.max_error = std::max(out.max_error, std::isfinite(e) ? e : std::numeric_limits<double>::infinity());
  }
  out.checked += static_cast<std::int64_t>(ref.size());
}

}  // namespace

SscCheck ssc_check(const SymmSquareCubeConfig& c, std::uint64_t seed, const BlockCut& cut, int i, int j,
                   const std::vector<double>& got2, const std::vector<double>& got3) {
  const std::int64_t n = c.n, r0 = cut.first(i), nr = cut.rows(i), c0 = cut.first(j), nc = cut.rows(j);
  const bool pur = c.input == SscInput::purification;
  // D whole (row-major), then D^2's rows r0 .. r0+nr over all N columns (D^3's left factor).
  std::vector<double> d(static_cast<std::size_t>(n * n));
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t t = 0; t < n; ++t) d[static_cast<std::size_t>(r * n + t)] = ssc_entry(r, t, n, seed, pur);
  std::vector<double> d2row(static_cast<std::size_t>(nr * n), 0.0);
  for (std::int64_t r = 0; r < nr; ++r) {
    double* out = &d2row[static_cast<std::size_t>(r * n)];
    for (std::int64_t t = 0; t < n; ++t) {
      const double a = d[static_cast<std::size_t>((r0 + r) * n + t)];
      const double* dt = &d[static_cast<std::size_t>(t * n)];
      for (std::int64_t col = 0; col < n; ++col) out[col] += a * dt[col];
    }
  }
  std::vector<double> ref2(static_cast<std::size_t>(nr * nc)), ref3(static_cast<std::size_t>(nr * nc), 0.0);
  for (std::int64_t r = 0; r < nr; ++r)
    for (std::int64_t col = 0; col < nc; ++col) {
      ref2[static_cast<std::size_t>(col * nr + r)] = d2row[static_cast<std::size_t>(r * n + c0 + col)];
      double s = 0;
      for (std::int64_t t = 0; t < n; ++t) s += d2row[static_cast<std::size_t>(r * n + t)] * d[static_cast<std::size_t>(t * n + c0 + col)];
      ref3[static_cast<std::size_t>(col * nr + r)] = s;
    }
  // Rounding grows with the length of the sums: a few ulps per term, generously.
  const double tol = 64.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon();
  SscCheck out;
  compare(got2, ref2, tol, out);
  compare(got3, ref3, tol, out);
  return out;
}

}  // namespace desync
