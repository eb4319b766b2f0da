#include "io/h5.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace desync::h5 {
namespace {

template <class T>
hid_t native();
template <>
hid_t native<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t native<std::int32_t>() { return H5T_NATIVE_INT32; }
template <>
hid_t native<std::int64_t>() { return H5T_NATIVE_INT64; }
template <>
hid_t native<std::uint8_t>() { return H5T_NATIVE_UINT8; }

Handle dataspace(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return Handle(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
                "H5Screate_simple");
}

Handle string_type(std::size_t width) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
  check(H5Tset_size(t, std::max<std::size_t>(width, 1)), "H5Tset_size");
  check(H5Tset_strpad(t, H5T_STR_NULLPAD), "H5Tset_strpad");
  return t;
}

Handle collective() {
  Handle p(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "H5Pcreate(xfer)");
  check(H5Pset_dxpl_mpio(p, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
  return p;
}

// Creates `name` and writes `buf` (this rank's part) into the hyperslab [start, start+count).
// A rank with an empty count selects nothing but still takes part.
void write(const Context& c, hid_t parent, const std::string& name, hid_t type,
           const std::vector<hsize_t>& dims, const std::vector<hsize_t>& start,
           const std::vector<hsize_t>& count, const void* buf, const char* units) {
  Handle fspace = dataspace(dims);
  Handle dset(H5Dcreate2(parent, name.c_str(), type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              H5Dclose, "H5Dcreate2");
  const bool empty = std::any_of(count.begin(), count.end(), [](hsize_t n) { return n == 0; });
  Handle mspace = dataspace(empty ? std::vector<hsize_t>{1} : (count.empty() ? std::vector<hsize_t>{} : count));
  if (empty) {
    check(H5Sselect_none(fspace), "H5Sselect_none");
    check(H5Sselect_none(mspace), "H5Sselect_none");
  } else if (!dims.empty()) {
    check(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
          "H5Sselect_hyperslab");
  }
  Handle xfer = collective();
  check(H5Dwrite(dset, type, mspace, fspace, xfer, buf), ("H5Dwrite " + name).c_str());
  if (units) attr(dset, "units", std::string(units));
}

std::size_t max_width(const Context& c, const std::vector<std::string>& s) {
  unsigned long long w = 1;
  for (const auto& x : s) w = std::max<unsigned long long>(w, x.size());
  MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
  return static_cast<std::size_t>(w);
}

}  // namespace

void check(herr_t status, const char* what) {
  if (status < 0) throw std::runtime_error(std::string("HDF5 call failed: ") + what);
}

Handle::Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) {
  if (id < 0) throw std::runtime_error(std::string("HDF5 call failed: ") + what);
}
Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}
Handle::Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
Handle& Handle::operator=(Handle&& o) noexcept {
  std::swap(id_, o.id_);
  std::swap(close_, o.close_);
  return *this;
}

Handle create_file(const std::string& path, MPI_Comm comm) {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate(fapl)");
  check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose,
                ("H5Fcreate " + path).c_str());
}

Handle create_group(hid_t parent, const std::string& name) {
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                ("H5Gcreate2 " + name).c_str());
}

void attr(hid_t obj, const std::string& name, const std::string& value) {
  Handle type = string_type(value.size());
  Handle space = dataspace({});
  Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
           ("H5Acreate2 " + name).c_str());
  check(H5Awrite(a, type, value.empty() ? "" : value.data()), "H5Awrite");
}

void attr(hid_t obj, const std::string& name, std::int64_t value) {
  Handle space = dataspace({});
  Handle a(H5Acreate2(obj, name.c_str(), H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
           ("H5Acreate2 " + name).c_str());
  check(H5Awrite(a, H5T_NATIVE_INT64, &value), "H5Awrite");
}

void attr(hid_t obj, const std::string& name, const std::vector<std::string>& values) {
  std::size_t w = 1;
  for (const auto& v : values) w = std::max(w, v.size());
  std::vector<char> buf(w * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) std::copy(values[i].begin(), values[i].end(), buf.begin() + i * w);
  Handle type = string_type(w);
  Handle space = dataspace({values.size()});
  Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
           ("H5Acreate2 " + name).c_str());
  check(H5Awrite(a, type, buf.data()), "H5Awrite");
}

template <class T>
void rows(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& row_dims,
          const std::vector<T>& local, const char* units) {
  std::vector<hsize_t> dims{static_cast<hsize_t>(c.size)}, start{static_cast<hsize_t>(c.rank)}, count{1};
  hsize_t n = 1;
  for (auto d : row_dims) {
    dims.push_back(d);
    start.push_back(0);
    count.push_back(d);
    n *= d;
  }
  if (local.size() != n) throw std::logic_error("h5::rows: " + name + ": row has the wrong size");
  write(c, parent, name, native<T>(), dims, start, count, local.data(), units);
}

template <class T>
void global(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
            const std::vector<T>& data, const char* units) {
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  if (c.rank != 0) count.assign(dims.empty() ? 1 : dims.size(), 0);
  write(c, parent, name, native<T>(), dims, start, count, data.data(), units);
}

void global_scalar(const Context& c, hid_t parent, const std::string& name, double value, const char* units) {
  global<double>(c, parent, name, {}, {value}, units);
}
void global_scalar(const Context& c, hid_t parent, const std::string& name, std::int64_t value, const char* units) {
  global<std::int64_t>(c, parent, name, {}, {value}, units);
}

void global_text(const Context& c, hid_t parent, const std::string& name, const std::string& text) {
  Handle type = string_type(text.size());
  std::vector<hsize_t> count;
  if (c.rank != 0) count = {0};
  write(c, parent, name, type, {}, {}, count, text.empty() ? "" : text.data(), "text");
}

namespace {
void text_rows(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local,
               bool one_per_rank) {
  const std::size_t w = max_width(c, local);
  unsigned long long k = local.size(), kmax = 0;
  MPI_Allreduce(&k, &kmax, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
  if (k != kmax) throw std::logic_error("h5::rows_text: " + name + ": ranks disagree on the row length");
  std::vector<char> buf(std::max<std::size_t>(w * local.size(), 1), '\0');
  for (std::size_t i = 0; i < local.size(); ++i) std::copy(local[i].begin(), local[i].end(), buf.begin() + i * w);
  Handle type = string_type(w);
  const auto p = static_cast<hsize_t>(c.size), r = static_cast<hsize_t>(c.rank);
  if (one_per_rank)
    write(c, parent, name, type, {p}, {r}, {1}, buf.data(), "text");
  else
    write(c, parent, name, type, {p, kmax}, {r, 0}, {1, kmax}, buf.data(), "text");
}
}  // namespace

void rows_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local) {
  text_rows(c, parent, name, local, false);
}

void rank_text(const Context& c, hid_t parent, const std::string& name, const std::string& local) {
  text_rows(c, parent, name, {local}, true);
}

template void rows<double>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                           const std::vector<double>&, const char*);
template void rows<std::int32_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                 const std::vector<std::int32_t>&, const char*);
template void rows<std::int64_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                 const std::vector<std::int64_t>&, const char*);
template void global<double>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                             const std::vector<double>&, const char*);
template void global<std::int32_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::int32_t>&, const char*);
template void global<std::int64_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::int64_t>&, const char*);
template void global<std::uint8_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::uint8_t>&, const char*);

}  // namespace desync::h5
