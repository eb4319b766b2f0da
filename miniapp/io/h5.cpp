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

// The first failure of a local call since the last agreement, with HDF5's innermost message.
// Calls that do no communication (dataspaces, types, property lists, selections, and the
// metadata operations that every rank performs alike: groups, datasets' creation, attributes) are
// not agreed on one by one: a rank whose call failed goes on with an invalid id, its later calls
// fail locally too, and the failure is reported at the next agreement, which comes before any
// call that communicates (a collective H5Dwrite, closing the file). Agreeing on every call was 6
// collective rounds per attribute and about 14 per dataset, which 8 ranks polling on 2 cores
// paid as time slices (docs/method.md section 31).
thread_local std::string pending;

void note(bool ok, const std::string& what) {
  if (ok) return;
  const std::string why = last_error();
  if (pending.empty()) pending = what + (why.empty() ? "" : ": " + why);
}

// Creation without a round of its own: a failure is noted and reported at the next agreement.
Handle make(hid_t id, herr_t (*close)(hid_t), const std::string& what) {
  note(id >= 0, what);
  return Handle(id, close);
}

void check(herr_t status, const std::string& what) { note(status >= 0, what); }

Handle dataspace(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return make(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  return make(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose, "H5Screate_simple");
}

Handle string_type(std::size_t width) {
  Handle t = make(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
  check(H5Tset_size(t, std::max<std::size_t>(width, 1)), "H5Tset_size");
  check(H5Tset_strpad(t, H5T_STR_NULLPAD), "H5Tset_strpad");
  return t;
}

Handle collective() {
  Handle p = make(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "H5Pcreate(xfer)");
  check(H5Pset_dxpl_mpio(p, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
  return p;
}

herr_t walk_innermost(unsigned n, const H5E_error2_t* e, void* out) {
  // Walked upward: entry 0 is where the error was first detected, the most specific message.
  if (n == 0 && e->desc) *static_cast<std::string*>(out) = e->desc;
  return 0;
}

// Who writes a dataset's elements: every rank its hyperslab in one collective write (the
// per-rank rows, which collective buffering aggregates on a parallel file system), or rank 0
// alone, independently, data every rank holds identically (scalars, text, small tables): no
// communication at all, where a collective write of a scalar was five rounds of MPI-IO's own
// (set_view's Allreduce and Barrier, write_at_all's Allgather ...).
enum class Writers { every_rank, rank0 };

// Creates `name` and writes `buf` (this rank's part) into the hyperslab [start, start+count).
// With Writers::every_rank a rank with an empty count selects nothing but still takes part; with
// Writers::rank0 the other ranks only create the dataset. A dataset with no elements at all (e.g.
// no halo partners on any rank) is created and not written: the dimensions are the same on every
// rank, so every rank skips the write together.
void write(const Context& c, hid_t parent, const std::string& name, hid_t type,
           const std::vector<hsize_t>& dims, const std::vector<hsize_t>& start,
           const std::vector<hsize_t>& count, const void* buf, const char* units, Writers writers) {
  Handle fspace = dataspace(dims);
  Handle dset = make(H5Dcreate2(parent, name.c_str(), type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Dclose, "H5Dcreate2 " + name);
  const bool no_elements = std::any_of(dims.begin(), dims.end(), [](hsize_t n) { return n == 0; });
  // HDF5 refuses a null buffer even for an empty selection.
  static const char dummy = 0;
  if (no_elements) {
    // nothing to write, on every rank alike
  } else if (writers == Writers::rank0) {
    // Independent transfer (HDF5's default) of the whole dataset; a failure is noted and reported
    // at the next agreement like any other local call.
    if (c.rank == 0) check(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf ? buf : &dummy), "writing " + name);
  } else {
    const bool empty = std::any_of(count.begin(), count.end(), [](hsize_t n) { return n == 0; });
    Handle mspace = dataspace(empty ? std::vector<hsize_t>{1} : count);
    bool ok = true;
    if (empty) {
      ok = H5Sselect_none(fspace) >= 0 && H5Sselect_none(mspace) >= 0;
    } else if (!dims.empty()) {
      ok = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) >= 0;
    }
    Handle xfer = collective();
    // The one round before the collective write: every rank's calls since the last one succeeded
    // (this dataset's creation and selection among them), or every rank throws.
    agree(c, ok, "selecting " + name);
    // A failed write (a full disk seen by one aggregator) is reported at the next agreement: the
    // next collective write or closing the file, both before any further communication.
    check(H5Dwrite(dset, type, mspace, fspace, xfer, buf ? buf : &dummy), "writing " + name);
  }
  if (units) attr(c, dset, "units", std::string(units));
  check(dset.close(), "closing " + name);
}

// Per-rank tables this small (all rows together) are gathered on rank 0 in one round and written
// by it alone: a collective MPI-IO write costs several rounds however small the data, and most of
// a file's per-rank datasets are a few numbers or names per rank. Larger ones (timelines, message
// logs) keep the collective write, which aggregates the ranks' pieces on a parallel file system.
constexpr std::size_t gather_limit_bytes = std::size_t{1} << 20;

// Gathers this rank's row (`bytes`, the same on every rank) into `all` on rank 0; false, and no
// communication, where the table is written collectively instead (the same answer on every rank).
bool gathered(const Context& c, const void* mine, std::size_t bytes, std::vector<char>& all) {
  if (c.size < 2 || c.row_count != 1 || c.rows != static_cast<hsize_t>(c.size) ||
      bytes * static_cast<std::size_t>(c.size) > gather_limit_bytes)
    return false;
  all.assign(c.rank == 0 ? std::max<std::size_t>(bytes * c.size, 1) : 1, '\0');
  MPI_Gather(mine, static_cast<int>(bytes), MPI_BYTE, all.data(), static_cast<int>(bytes), MPI_BYTE, 0, c.comm);
  return true;
}

// A per-rank table: gathered and written by rank 0 when small, else one collective write.
void write_rows(const Context& c, hid_t parent, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                const std::vector<hsize_t>& start, const std::vector<hsize_t>& count, const void* local,
                std::size_t bytes, const char* units) {
  if (std::vector<char> all; gathered(c, local, bytes, all))
    write(c, parent, name, type, dims, {}, {}, all.data(), units, Writers::rank0);
  else
    write(c, parent, name, type, dims, start, count, local, units, Writers::every_rank);
}

}  // namespace

std::string last_error() {
  std::string msg;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_innermost, &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg;
}

void agree(const Context& c, bool ok, const std::string& what, const std::string& detail) {
  // This rank's first failure: an earlier local call's (noted), else this one's.
  std::string mine;
  mine.swap(pending);
  if (!ok && mine.empty()) {
    const std::string why = detail.empty() ? last_error() : detail;
    mine = what + (why.empty() ? "" : ": " + why);
  }
  if (!ok) H5Eclear2(H5E_DEFAULT);
  if (!mine.empty() && c.size > 1) mine = "rank " + std::to_string(c.rank) + ": " + mine;
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
  pending.clear();  // a failure noted for an earlier file that was abandoned by another error
  Handle fapl = make(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate(fapl)");
  check(H5Pset_fapl_mpio(fapl, c.comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  Handle file = make(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "creating " + path);
  agree(c, true, "creating " + path);
  return file;
}

void close_file(const Context& c, Handle& file) {
  // Closing flushes the metadata collectively: every rank's noted failures first.
  agree(c, true, "writing the file");
  agree(c, file.close() >= 0, "closing the file");
}

Handle create_group(const Context& /*c: every rank calls*/, hid_t parent, const std::string& name) {
  return make(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
              "creating group " + name);
}

Handle open_group(const Context& /*c: every rank calls*/, hid_t parent, const std::string& name) {
  return make(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "opening group " + name);
}

bool group_exists(hid_t parent, const std::string& name) { return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0; }

Handle open_dataset(const Context& /*c: every rank calls*/, hid_t parent, const std::string& name) {
  return make(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, "opening " + name);
}

namespace {
void write_attr(const Context& /*c: every rank calls*/, hid_t obj, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                const void* buf) {
  Handle space = dataspace(dims);
  Handle a = make(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                  "creating attribute " + name);
  check(H5Awrite(a, type, buf), "writing attribute " + name);
}
}  // namespace

void attr(const Context& c, hid_t obj, const std::string& name, const std::string& value) {
  Handle type = string_type(value.size());
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
  Handle type = string_type(w);
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
  write_rows(c, parent, name, native<T>(), dims, start, count, local.data(), n * sizeof(T), units);
}

template <class T>
void global(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
            const std::vector<T>& data, const char* units) {
  write(c, parent, name, native<T>(), dims, {}, {}, data.data(), units, Writers::rank0);
}

void global_scalar(const Context& c, hid_t parent, const std::string& name, double value, const char* units) {
  global<double>(c, parent, name, {}, {value}, units);
}
void global_scalar(const Context& c, hid_t parent, const std::string& name, std::int64_t value, const char* units) {
  global<std::int64_t>(c, parent, name, {}, {value}, units);
}

void global_text(const Context& c, hid_t parent, const std::string& name, const std::string& text) {
  Handle type = string_type(text.size());
  write(c, parent, name, type, {}, {}, {}, text.empty() ? "" : text.data(), "text", Writers::rank0);
}

void global_text_list(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& list) {
  std::size_t w = 1;
  for (const auto& s : list) w = std::max(w, s.size());
  std::vector<char> buf(std::max<std::size_t>(w * list.size(), 1), '\0');
  for (std::size_t i = 0; i < list.size(); ++i) std::copy(list[i].begin(), list[i].end(), buf.begin() + i * w);
  Handle type = string_type(w);
  const auto n = static_cast<hsize_t>(list.size());
  write(c, parent, name, type, {n}, {}, {}, buf.data(), "text", Writers::rank0);
}

namespace {
void text_rows(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local,
               bool one_per_rank) {
  if (c.row_count == 0 || local.size() % c.row_count != 0)
    throw std::logic_error("h5::rows_text: " + name + ": not row_count rows of strings");
  // One round for the string width and the row length (strings per row), both the largest of any rank.
  const unsigned long long k = local.size() / c.row_count;
  unsigned long long w_k[2] = {1, k};
  for (const auto& x : local) w_k[0] = std::max<unsigned long long>(w_k[0], x.size());
  MPI_Allreduce(MPI_IN_PLACE, w_k, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
  const auto w = static_cast<std::size_t>(w_k[0]);
  const hsize_t kmax = w_k[1];
  if (k != kmax || (one_per_rank && k != 1))
    throw std::logic_error("h5::rows_text: " + name + ": ranks disagree on the row length");
  std::vector<char> buf(std::max<std::size_t>(w * local.size(), 1), '\0');
  for (std::size_t i = 0; i < local.size(); ++i) std::copy(local[i].begin(), local[i].end(), buf.begin() + i * w);
  Handle type = string_type(w);
  std::vector<hsize_t> dims{c.rows}, start{c.first_row}, count{c.row_count};
  if (!one_per_rank) {
    dims.push_back(kmax);
    start.push_back(0);
    count.push_back(kmax);
  }
  write_rows(c, parent, name, type, dims, start, count, buf.data(), w * local.size(), "text");
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
