#include "io/h5.hpp"

#include <algorithm>
#include <string>

#include "core/mpi_util.hpp"

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

// Creation with agreement: every rank learns whether every rank got a valid id.
Handle make(const Context& c, hid_t id, herr_t (*close)(hid_t), const std::string& what) {
  Handle h(id, close);
  agree(c, id >= 0, what);
  return h;
}

void check(const Context& c, herr_t status, const std::string& what) { agree(c, status >= 0, what); }

Handle dataspace(const Context& c, const std::vector<hsize_t>& dims) {
  if (dims.empty()) return make(c, H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  return make(c, H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose, "H5Screate_simple");
}

Handle string_type(const Context& c, std::size_t width) {
  Handle t = make(c, H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
  check(c, H5Tset_size(t, std::max<std::size_t>(width, 1)), "H5Tset_size");
  check(c, H5Tset_strpad(t, H5T_STR_NULLPAD), "H5Tset_strpad");
  return t;
}

Handle collective(const Context& c) {
  Handle p = make(c, H5Pcreate(H5P_DATASET_XFER), H5Pclose, "H5Pcreate(xfer)");
  check(c, H5Pset_dxpl_mpio(p, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
  return p;
}

herr_t walk_innermost(unsigned n, const H5E_error2_t* e, void* out) {
  // Walked upward: entry 0 is where the error was first detected, the most specific message.
  if (n == 0 && e->desc) *static_cast<std::string*>(out) = e->desc;
  return 0;
}

// Creates `name` and writes `buf` (this rank's part) into the hyperslab [start, start+count).
// A rank with an empty count selects nothing but still takes part. A dataset with no elements at
// all (e.g. no halo partners on any rank) is created and not written: the dimensions are the
// same on every rank, so every rank skips the write together.
void write(const Context& c, hid_t parent, const std::string& name, hid_t type,
           const std::vector<hsize_t>& dims, const std::vector<hsize_t>& start,
           const std::vector<hsize_t>& count, const void* buf, const char* units) {
  Handle fspace = dataspace(c, dims);
  Handle dset = make(c, H5Dcreate2(parent, name.c_str(), type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Dclose, "H5Dcreate2 " + name);
  const bool no_elements = std::any_of(dims.begin(), dims.end(), [](hsize_t n) { return n == 0; });
  if (!no_elements) {
    const bool empty = std::any_of(count.begin(), count.end(), [](hsize_t n) { return n == 0; });
    Handle mspace = dataspace(c, empty ? std::vector<hsize_t>{1} : count);
    bool ok = true;
    if (empty) {
      ok = H5Sselect_none(fspace) >= 0 && H5Sselect_none(mspace) >= 0;
    } else if (!dims.empty()) {
      ok = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) >= 0;
    }
    check(c, ok ? 0 : -1, "selecting " + name);
    Handle xfer = collective(c);
    // HDF5 refuses a null buffer even for an empty selection.
    static const char dummy = 0;
    check(c, H5Dwrite(dset, type, mspace, fspace, xfer, buf ? buf : &dummy), "writing " + name);
  }
  if (units) attr(c, dset, "units", std::string(units));
  check(c, dset.close(), "closing " + name);
}

std::size_t max_width(const Context& c, const std::vector<std::string>& s) {
  unsigned long long w = 1;
  for (const auto& x : s) w = std::max<unsigned long long>(w, x.size());
  MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
  return static_cast<std::size_t>(w);
}

}  // namespace

std::string last_error() {
  std::string msg;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_innermost, &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg;
}

void agree(const Context& c, bool ok, const std::string& what, const std::string& detail) {
  std::string mine;
  if (!ok) {
    const std::string why = detail.empty() ? last_error() : detail;
    mine = what + (why.empty() ? "" : ": " + why);
    if (c.size > 1) mine = "rank " + std::to_string(c.rank) + ": " + mine;
  }
  if (const std::string msg = first_message(mine, c.comm); !msg.empty()) throw Error(msg);
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
herr_t Handle::close() {
  herr_t s = 0;
  if (id_ >= 0 && close_) s = close_(id_);
  id_ = -1;
  return s;
}

Handle create_file(const Context& c, const std::string& path) {
  // desync reports failures itself, once, from agree(); HDF5's stack dumps would come from every rank.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle fapl = make(c, H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate(fapl)");
  check(c, H5Pset_fapl_mpio(fapl, c.comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  return make(c, H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "creating " + path);
}

void close_file(const Context& c, Handle& file) { check(c, file.close(), "closing the file"); }

Handle create_group(const Context& c, hid_t parent, const std::string& name) {
  return make(c, H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
              "creating group " + name);
}

Handle open_group(const Context& c, hid_t parent, const std::string& name) {
  return make(c, H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "opening group " + name);
}

bool group_exists(hid_t parent, const std::string& name) { return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0; }

Handle open_dataset(const Context& c, hid_t parent, const std::string& name) {
  return make(c, H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, "opening " + name);
}

namespace {
void write_attr(const Context& c, hid_t obj, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                const void* buf) {
  Handle space = dataspace(c, dims);
  Handle a = make(c, H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                  "creating attribute " + name);
  check(c, H5Awrite(a, type, buf), "writing attribute " + name);
}
}  // namespace

void attr(const Context& c, hid_t obj, const std::string& name, const std::string& value) {
  Handle type = string_type(c, value.size());
  write_attr(c, obj, name, type, {}, value.empty() ? "" : value.data());
}

void attr(const Context& c, hid_t obj, const std::string& name, std::int64_t value) {
  write_attr(c, obj, name, H5T_NATIVE_INT64, {}, &value);
}

void attr(const Context& c, hid_t obj, const std::string& name, const std::vector<std::string>& values) {
  std::size_t w = 1;
  for (const auto& v : values) w = std::max(w, v.size());
  std::vector<char> buf(std::max<std::size_t>(w * values.size(), 1), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) std::copy(values[i].begin(), values[i].end(), buf.begin() + i * w);
  Handle type = string_type(c, w);
  write_attr(c, obj, name, type, {values.size()}, buf.data());
}

Context mpi_context(MPI_Comm comm) {
  const int r = comm_rank(comm), s = comm_size(comm);
  return Context{comm, r, s, static_cast<hsize_t>(s), static_cast<hsize_t>(r), 1};
}

Context virtual_ranks_context(MPI_Comm comm, hsize_t ranks) {
  if (comm_size(comm) != 1) throw std::logic_error("h5::virtual_ranks_context: one process writes every row");
  return Context{comm, 0, 1, ranks, 0, ranks};
}

template <class T>
void rows(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& row_dims,
          const std::vector<T>& local, const char* units) {
  std::vector<hsize_t> dims{c.rows}, start{c.first_row}, count{c.row_count};
  hsize_t n = c.row_count;
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
  Handle type = string_type(c, text.size());
  std::vector<hsize_t> count;
  if (c.rank != 0) count = {0};
  write(c, parent, name, type, {}, {}, count, text.empty() ? "" : text.data(), "text");
}

void global_text_list(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& list) {
  std::size_t w = 1;
  for (const auto& s : list) w = std::max(w, s.size());
  std::vector<char> buf(std::max<std::size_t>(w * list.size(), 1), '\0');
  for (std::size_t i = 0; i < list.size(); ++i) std::copy(list[i].begin(), list[i].end(), buf.begin() + i * w);
  Handle type = string_type(c, w);
  const auto n = static_cast<hsize_t>(list.size());
  write(c, parent, name, type, {n}, {0}, {c.rank == 0 ? n : 0}, buf.data(), "text");
}

namespace {
void text_rows(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local,
               bool one_per_rank) {
  const std::size_t w = max_width(c, local);
  if (c.row_count == 0 || local.size() % c.row_count != 0)
    throw std::logic_error("h5::rows_text: " + name + ": not row_count rows of strings");
  unsigned long long k = local.size() / c.row_count, kmax = 0;
  MPI_Allreduce(&k, &kmax, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
  if (k != kmax || (one_per_rank && k != 1))
    throw std::logic_error("h5::rows_text: " + name + ": ranks disagree on the row length");
  std::vector<char> buf(std::max<std::size_t>(w * local.size(), 1), '\0');
  for (std::size_t i = 0; i < local.size(); ++i) std::copy(local[i].begin(), local[i].end(), buf.begin() + i * w);
  Handle type = string_type(c, w);
  if (one_per_rank)
    write(c, parent, name, type, {c.rows}, {c.first_row}, {c.row_count}, buf.data(), "text");
  else
    write(c, parent, name, type, {c.rows, kmax}, {c.first_row, 0}, {c.row_count, kmax}, buf.data(), "text");
}
}  // namespace

void rows_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local) {
  text_rows(c, parent, name, local, false);
}

void rank_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local) {
  text_rows(c, parent, name, local, true);
}

template void rows<double>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                           const std::vector<double>&, const char*);
template void rows<std::int32_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                 const std::vector<std::int32_t>&, const char*);
template void rows<std::int64_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                 const std::vector<std::int64_t>&, const char*);
template void rows<std::uint8_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                 const std::vector<std::uint8_t>&, const char*);
template void global<double>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                             const std::vector<double>&, const char*);
template void global<std::int32_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::int32_t>&, const char*);
template void global<std::int64_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::int64_t>&, const char*);
template void global<std::uint8_t>(const Context&, hid_t, const std::string&, const std::vector<hsize_t>&,
                                   const std::vector<std::uint8_t>&, const char*);

}  // namespace desync::h5
