#include "workloads/chebfd/chebfd_bounds.hpp"

#include "comm/exchange.hpp"
#include "comm/halo_exchange.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "core/mpi_util.hpp"

namespace desync::chebfd {
namespace {

using Host = std::complex<double>;  // host arithmetic for both scalar types
Host host(double v) { return {v, 0.0}; }
Host host(const Complex& v) { return {v.real(), v.imag()}; }

// Eigenvalues of the tridiagonal matrix below x (Sturm count of the LDL^T pivots).
int count_below(const std::vector<double>& a, const std::vector<double>& b, double x) {
  int count = 0;
  double d = 1.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double off = i > 0 ? b[i - 1] * b[i - 1] : 0.0;
    d = a[i] - x - (i > 0 ? off / d : 0.0);
    if (d == 0.0) d = -1e-300;
    if (d < 0.0) ++count;
  }
  return count;
}

// |beta_k s_k| for the Ritz value theta: beta_k times the last component of its normalized
// eigenvector of T (a few steps of inverse iteration, Thomas algorithm). An eigenvalue of A lies
// within this residual of theta.
double ritz_residual(const std::vector<double>& a, const std::vector<double>& b, double theta, double beta_k) {
  const std::size_t n = a.size();
  const double sigma = theta + 1e-10 * std::max(1.0, std::fabs(theta));
  std::vector<double> x(n, 1.0), c(n), d(n);
  for (int it = 0; it < 3; ++it) {
    // forward sweep of (T - sigma I) y = x
    double denom = a[0] - sigma;
    c[0] = n > 1 ? b[0] / denom : 0.0;
    d[0] = x[0] / denom;
    for (std::size_t i = 1; i < n; ++i) {
      denom = a[i] - sigma - b[i - 1] * c[i - 1];
      c[i] = i + 1 < n ? b[i] / denom : 0.0;
      d[i] = (x[i] - b[i - 1] * d[i - 1]) / denom;
    }
    x[n - 1] = d[n - 1];
    for (std::size_t i = n - 1; i-- > 0;) x[i] = d[i] - c[i] * x[i + 1];
    double norm = 0.0;
    for (double v : x) norm += v * v;
    norm = std::sqrt(norm);
    for (double& v : x) v /= norm;
  }
  return std::fabs(beta_k * x[n - 1]);
}

}  // namespace

std::pair<double, double> tridiagonal_extremes(const std::vector<double>& a, const std::vector<double>& b) {
  double lo = a[0], hi = a[0];
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double r = (i > 0 ? std::fabs(b[i - 1]) : 0.0) + (i + 1 < a.size() ? std::fabs(b[i]) : 0.0);
    lo = std::min(lo, a[i] - r);
    hi = std::max(hi, a[i] + r);
  }
  const int n = static_cast<int>(a.size());
  auto bisect = [&](int k) {  // the (k+1)-th smallest eigenvalue
    double l = lo, h = hi;
    for (int it = 0; it < 200 && h - l > 1e-14 * std::max(1.0, std::fabs(l) + std::fabs(h)); ++it) {
      const double mid = 0.5 * (l + h);
      (count_below(a, b, mid) > k ? h : l) = mid;
    }
    return 0.5 * (l + h);
  };
  return {bisect(0), bisect(n - 1)};
}

template <class T>
std::pair<double, double> gershgorin_bounds(const LocalMatrix<T>& m, MPI_Comm comm) {
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  double ext[2] = {-INFINITY, -INFINITY};  // -lo, hi
  for (std::int32_t i = 0; i < m.rows; ++i) {
    double centre = 0.0, radius = 0.0;
    for (auto k = rp(i); k < rp(i + 1); ++k) {
      if (col(k) == i) centre = host(val(k)).real();
      else radius += std::abs(host(val(k)));
    }
    ext[0] = std::max(ext[0], radius - centre);
    ext[1] = std::max(ext[1], centre + radius);
  }
  MPI_Allreduce(MPI_IN_PLACE, ext, 2, MPI_DOUBLE, MPI_MAX, comm);
  return {-ext[0], ext[1]};
}

template <class T>
std::pair<double, double> lanczos_bounds(const LocalMatrix<T>& m, const HaloPlan& plan, int steps, MPI_Comm comm,
                                         const CommConfig& opt) {
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  const std::size_t n = static_cast<std::size_t>(m.rows), h = m.halo_columns.size();
  std::vector<Host> v(n + h), prev(n, 0.0), w(n), send(plan.send_index_host.size());
  auto dot = [&](const std::vector<Host>& x, const std::vector<Host>& y) {
    double s[2] = {0.0, 0.0};
    for (std::size_t i = 0; i < n; ++i) {
      const Host p = std::conj(x[i]) * y[i];
      s[0] += p.real();
      s[1] += p.imag();
    }
    MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, comm);
    return Host(s[0], s[1]);
  };
  // Halo exchange of v through the communication layer (setup only; [comm] applies as everywhere).
  const Communicators comms(comm, static_cast<int>(opt.communicators));
  Exchange halo(comms, Channel::setup, halo_messages(plan.send, sizeof(Host)), halo_messages(plan.recv, sizeof(Host)), opt);
  auto exchange = [&] {
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = v[static_cast<std::size_t>(plan.send_index_host[i])];
    halo.post(send.data(), v.data() + n);
    halo.complete();
  };
  // Start vector: deterministic in the global row, so the bounds do not depend on the rank count.
  for (std::size_t i = 0; i < n; ++i) {
    const auto g = static_cast<std::uint64_t>(m.first_row) + i;
    v[i] = Host(1.0 + static_cast<double>((g * 2654435761ull) % 1000u) / 1000.0, 0.0);
  }
  const double norm0 = std::sqrt(dot(v, v).real());
  for (std::size_t i = 0; i < n; ++i) v[i] /= norm0;

  std::vector<double> alpha, beta;
  double b_prev = 0.0;
  for (int k = 0; k < steps; ++k) {
    exchange();
    for (std::size_t i = 0; i < n; ++i) {
      Host s = 0.0;
      for (auto j = rp(i); j < rp(i + 1); ++j) s += host(val(j)) * v[static_cast<std::size_t>(col(j))];
      w[i] = s;
    }
    const double a = dot(v, w).real();
    for (std::size_t i = 0; i < n; ++i) w[i] -= a * v[i] + b_prev * prev[i];
    const double b = std::sqrt(dot(w, w).real());
    alpha.push_back(a);
    if (b <= 1e-12 * std::max(1.0, std::fabs(a)) || k + 1 == steps) {  // invariant subspace, or done
      beta.push_back(b);
      break;
    }
    beta.push_back(b);
    for (std::size_t i = 0; i < n; ++i) {
      prev[i] = v[i];
      v[i] = w[i] / b;
    }
    b_prev = b;
  }
  const double last = beta.back();
  beta.pop_back();
  const auto [theta_lo, theta_hi] = tridiagonal_extremes(alpha, beta);
  // Widen by the Ritz residual (plus 1 % of it and of the spread as a margin for the Lanczos
  // vectors' loss of orthogonality), never beyond Gershgorin.
  const double spread = theta_hi - theta_lo;
  const double r_lo = 1.01 * ritz_residual(alpha, beta, theta_lo, last) + 1e-3 * spread;
  const double r_hi = 1.01 * ritz_residual(alpha, beta, theta_hi, last) + 1e-3 * spread;
  const auto [g_lo, g_hi] = gershgorin_bounds(m, comm);
  return {std::max(g_lo, theta_lo - r_lo), std::min(g_hi, theta_hi + r_hi)};
}

template std::pair<double, double> gershgorin_bounds(const LocalMatrix<double>&, MPI_Comm);
template std::pair<double, double> gershgorin_bounds(const LocalMatrix<Complex>&, MPI_Comm);
template std::pair<double, double> lanczos_bounds(const LocalMatrix<double>&, const HaloPlan&, int, MPI_Comm, const CommConfig&);
template std::pair<double, double> lanczos_bounds(const LocalMatrix<Complex>&, const HaloPlan&, int, MPI_Comm, const CommConfig&);

}  // namespace desync::chebfd
