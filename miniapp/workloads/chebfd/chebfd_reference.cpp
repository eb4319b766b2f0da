#include "workloads/chebfd/chebfd_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "matrix/row_stream.hpp"

namespace desync::chebfd {
namespace {

using C = std::complex<double>;

struct HostCrs {
  std::vector<std::size_t> ptr{0};
  std::vector<GlobalIndex> col;
  std::vector<C> val;
};

HostCrs all_rows(const MatrixGenerator& g) {
  const GlobalIndex nr = g.rows();
  std::vector<std::vector<std::pair<GlobalIndex, C>>> rows(static_cast<std::size_t>(nr));
  for_each_row(g, 0, nr, "desync::chebfd::reference_rows", [&](GlobalIndex, GlobalIndex r, const GlobalIndex* cols, const Scalar* vals, int n) {
    auto& row = rows[static_cast<std::size_t>(r)];
    for (int k = 0; k < n; ++k) row.emplace_back(cols[k], vals[k]);
  });
  HostCrs h;
  for (const auto& row : rows) {
    for (const auto& [c, v] : row) {
      h.col.push_back(c);
      h.val.push_back(v);
    }
    h.ptr.push_back(h.col.size());
  }
  return h;
}

}  // namespace

double reference_tolerance(int np) { return 1e-10 * std::max(1.0, (np / 50.0) * (np / 50.0)); }

std::int64_t compare_with_reference(const MatrixGenerator& g, const ChebfdConfig& c, const Scaling& s,
                                    const std::vector<double>& gc, const std::vector<C>& x_all, const Moments& m,
                                    std::string& why) {
  const HostCrs h = all_rows(g);
  const auto nr = static_cast<std::size_t>(g.rows());
  const auto nb = static_cast<std::size_t>(c.nb), np = static_cast<std::size_t>(c.np);
  const double tol = reference_tolerance(static_cast<int>(c.np));
  const bool complex = g.is_complex();
  std::vector<C> u(nr), w(nr), x(nr), hu(nr);
  auto apply = [&](const std::vector<C>& in) {
    for (std::size_t i = 0; i < nr; ++i) {
      C sum = 0.0;
      for (std::size_t k = h.ptr[i]; k < h.ptr[i + 1]; ++k) sum += h.val[k] * in[static_cast<std::size_t>(h.col[k])];
      hu[i] = sum;
    }
  };
  std::int64_t bad = 0;
  double worst = 0.0;
  // what(): the element's name, formatted only when it fails (a string per moment and element
  // would cost more than the comparison).
  auto check = [&](double err, double scale, auto&& what) {
    if (!(err <= tol * scale)) {
      ++bad;
      if (!(err / scale <= worst)) {
        worst = err / scale;
        why = fmt::format("{}: relative error {:.3g} > {:.3g}", what(), worst, tol);
      }
    }
  };
  for (std::size_t j = 0; j < static_cast<std::size_t>(c.ns); ++j) {
    const std::size_t b = j / nb, k = j % nb;
    double scale = 0.0;
    for (std::size_t i = 0; i < nr; ++i) {
      const auto gi = static_cast<std::int64_t>(i), gj = static_cast<std::int64_t>(j);
      u[i] = C(start_re(gi, gj), complex ? start_im(gi, gj) : 0.0);
      scale = std::max(scale, std::abs(u[i]));
    }
    apply(u);
    for (std::size_t i = 0; i < nr; ++i) {
      w[i] = s.alpha * hu[i] + s.beta * u[i];
      x[i] = gc[0] * u[i] + gc[1] * w[i];
    }
    for (std::size_t p = 1; p <= np; ++p) {
      if (p > 1) {
        std::swap(u, w);
        apply(u);
        for (std::size_t i = 0; i < nr; ++i) {
          w[i] = 2.0 * s.alpha * hu[i] + 2.0 * s.beta * u[i] - w[i];
          x[i] += gc[p] * w[i];
        }
      }
      C eta = 0.0;
      double mu = 0.0;
      for (std::size_t i = 0; i < nr; ++i) {
        eta += std::conj(u[i]) * w[i];
        mu += std::norm(u[i]);
      }
      const std::size_t e = (b * np + p - 1) * nb + k;
      const double mscale = std::max(mu, m.mu[(b * np) * nb + k]);  // mu_1 bounds every moment
      check(std::abs(C(m.eta_re[e], m.eta_im[e]) - eta), mscale, [&] { return fmt::format("eta_{} of vector {}", p, j); });
      check(std::fabs(m.mu[e] - mu), mscale, [&] { return fmt::format("mu_{} of vector {}", p, j); });
    }
    for (std::size_t i = 0; i < nr; ++i) scale = std::max(scale, std::abs(x[i]));
    for (std::size_t i = 0; i < nr; ++i)
      check(std::abs(x_all[(b * nr + i) * nb + k] - x[i]), scale, [&] { return fmt::format("X({}, {})", i, j); });
  }
  return bad;
}

std::int64_t check_moment_invariants(const Moments& m, std::string& why) {
  std::int64_t bad = 0;
  auto fail = [&](bool ok, auto&& what) {  // what(): formatted only for the first failure
    if (ok) return;
    if (bad++ == 0) why = what();
  };
  for (int b = 0; b < m.blocks; ++b)
    for (int k = 0; k < m.nb; ++k) {
      auto at = [&](int p) { return (static_cast<std::size_t>(b) * m.np + p - 1) * m.nb + k; };
      const double mu1 = m.mu[at(1)];
      // mu_1 = |u_0|^2 of a random start vector: zero (or NaN) would pass every bound below
      // (all moments zero: a filter that computed nothing).
      fail(mu1 > 0.0, [&] {
        return fmt::format("mu_1 = {} of vector {}: the start vector's norm is not positive", mu1, b * m.nb + k);
      });
      for (int p = 1; p <= m.np; ++p) {
        const std::size_t e = at(p);
        const double re = m.eta_re[e], im = m.eta_im[e], mu = m.mu[e];
        const int j = b * m.nb + k;
        fail(std::isfinite(re) && std::isfinite(im) && std::isfinite(mu),
             [&] { return fmt::format("moment {} of vector {} not finite", p, j); });
        fail(mu <= mu1 * (1 + 1e-8),
             [&] { return fmt::format("mu_{} = {} > mu_1 = {} for vector {}: spectrum outside the bounds?", p, mu, mu1, j); });
        fail(std::fabs(im) <= 1e-8 * mu1, [&] { return fmt::format("Im eta_{} = {} for vector {}: not Hermitian", p, im, j); });
        if (p < m.np)
          fail(re * re + im * im <= mu * m.mu[at(p + 1)] * (1 + 1e-8),
               [&] { return fmt::format("|eta_{}|^2 > mu_{} mu_{} for vector {}", p, p, p + 1, j); });
      }
    }
  return bad;
}

}  // namespace desync::chebfd
