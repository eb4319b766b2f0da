#include "matrix/sell_matrix.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kokkos_compat/labelled_fill.hpp"

namespace desync {

std::vector<std::int32_t> sell_row_order(const std::vector<std::int32_t>& lengths, int sigma) {
  std::vector<std::int32_t> order(lengths.size());
  std::iota(order.begin(), order.end(), 0);
  if (sigma <= 1) return order;
  const auto longer = [&](std::int32_t a, std::int32_t b) { return lengths[a] > lengths[b]; };
  for (std::size_t b = 0; b < order.size(); b += static_cast<std::size_t>(sigma))
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(b),
                     order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), b + sigma)), longer);
  return order;
}

namespace {

// Stored entries per chunk (C x the longest row of the chunk) in the given row order.
std::vector<std::int64_t> chunk_widths(const std::vector<std::int32_t>& lengths, const std::vector<std::int32_t>& order,
                                       int chunk) {
  const std::size_t chunks = (order.size() + chunk - 1) / chunk;
  std::vector<std::int64_t> width(chunks, 0);
  for (std::size_t s = 0; s < order.size(); ++s)
    width[s / chunk] = std::max<std::int64_t>(width[s / chunk], lengths[static_cast<std::size_t>(order[s])]);
  return width;
}

void check(int chunk, int sigma) {
  if (std::find(std::begin(sell_chunks), std::end(sell_chunks), chunk) == std::end(sell_chunks))
    throw std::invalid_argument("SELL-C-sigma: chunk " + std::to_string(chunk) + " is not one of 1, 2, 4, 8, 16, 32");
  if (sigma < 1 || (sigma > 1 && sigma % chunk != 0))
    throw std::invalid_argument("SELL-C-sigma: sigma " + std::to_string(sigma) + " must be 1 or a multiple of the chunk");
}

}  // namespace

std::int64_t sell_stored(const std::vector<std::int32_t>& lengths, int chunk, int sigma) {
  check(chunk, sigma);
  std::int64_t stored = 0;
  for (auto w : chunk_widths(lengths, sell_row_order(lengths, sigma), chunk)) stored += w * chunk;
  return stored;
}

double sell_beta(const std::vector<std::int32_t>& lengths, int chunk, int sigma) {
  std::int64_t nnz = 0;
  for (auto n : lengths) nnz += n;
  const std::int64_t stored = sell_stored(lengths, chunk, sigma);
  return stored > 0 ? static_cast<double>(nnz) / static_cast<double>(stored) : 1.0;
}

template <class T>
SellMatrix<T> make_sell(const RowOffsets& row_ptr, const LocalColumns& col, const Values<T>& val, std::int32_t rows,
                        int chunk, int sigma, const char* label) {
  check(chunk, sigma);
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_ptr);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), val);
  std::vector<std::int32_t> lengths(static_cast<std::size_t>(rows));
  for (std::int32_t i = 0; i < rows; ++i) lengths[i] = static_cast<std::int32_t>(rp(i + 1) - rp(i));
  const std::vector<std::int32_t> order = sell_row_order(lengths, sigma);
  const std::vector<std::int64_t> width = chunk_widths(lengths, order, chunk);

  SellMatrix<T> s;
  s.chunk = chunk;
  s.sigma = sigma;
  s.rows = rows;
  s.chunks = static_cast<std::int32_t>(width.size());
  s.nnz = static_cast<std::int64_t>(rows > 0 ? rp(rows) : 0);
  const std::string base = std::string(label) + "_sell";
  s.chunk_ptr = RowOffsets(base + "_chunk_ptr", width.size() + 1);
  s.row_of = LocalColumns(base + "_row_of", width.size() * chunk);
  auto cp = Kokkos::create_mirror_view(s.chunk_ptr);
  auto ro = Kokkos::create_mirror_view(s.row_of);
  cp(0) = 0;
  for (std::size_t c = 0; c < width.size(); ++c) cp(c + 1) = cp(c) + static_cast<std::size_t>(width[c] * chunk);
  s.stored = static_cast<std::int64_t>(cp(width.size()));
  s.col = LocalColumns(base + "_col", static_cast<std::size_t>(s.stored));  // zero-filled: padding
  s.val = Values<T>(base + "_val", static_cast<std::size_t>(s.stored));
  auto sc = Kokkos::create_mirror_view(s.col);
  auto sv = Kokkos::create_mirror_view(s.val);
  compat::labelled_fill(base + "_col_fill", sc, 0);
  compat::labelled_fill(base + "_val_fill", sv, T(0.0));
  for (std::size_t slot = 0; slot < width.size() * chunk; ++slot) {
    const std::size_t c = slot / chunk, l = slot % chunk;
    if (slot >= order.size()) {
      ro(slot) = -1;
      continue;
    }
    const std::int32_t r = order[slot];
    ro(slot) = r;
    for (std::size_t k = rp(r), j = 0; k < rp(r + 1); ++k, ++j) {
      const std::size_t e = cp(c) + j * chunk + l;
      sc(e) = hc(k);
      sv(e) = hv(k);
    }
  }
  Kokkos::deep_copy(s.chunk_ptr, cp);
  Kokkos::deep_copy(s.row_of, ro);
  Kokkos::deep_copy(s.col, sc);
  Kokkos::deep_copy(s.val, sv);
  return s;
}

template SellMatrix<double> make_sell(const RowOffsets&, const LocalColumns&, const Values<double>&, std::int32_t, int,
                                      int, const char*);
template SellMatrix<Complex> make_sell(const RowOffsets&, const LocalColumns&, const Values<Complex>&, std::int32_t,
                                       int, int, const char*);

}  // namespace desync
