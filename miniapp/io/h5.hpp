#pragma once
// Thin, checked wrappers over parallel HDF5. Every call's status is agreed on by all ranks of the
// file's communicator before any call that communicates (creating the file, each collective
// dataset write, closing the file): a call that fails on one rank (a full disk seen by one I/O
// aggregator, say) makes every rank throw the same h5::Error there, so no rank is left waiting in
// a collective call. Calls that do not communicate are not agreed on one by one; their first
// failure is kept and reported at the next agreement. HDF5's own error-stack printing is switched
// off; the innermost message of the failing rank's stack (e.g. "No space left on device") goes
// into Error::what().
// All functions are collective over the file's communicator: "rows" functions write the rows of
// the Context's row block (dimension 0 = rank) in one collective write, "global" functions write
// data every rank holds identically (every rank creates the dataset, as parallel HDF5 wants of
// metadata; rank 0 alone writes the elements, independently, with no communication).
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace desync::h5 {

// A failed HDF5 (or file system) operation, thrown on every rank with the same message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Context {
  MPI_Comm comm;
  int rank, size;
  // The rows of the per-rank ("rows") datasets: the file has `rows` of them and this process
  // writes [first_row, first_row + row_count). A real run writes one row per MPI rank; `desync
  // simulate` is one process writing the rows of all its virtual ranks.
  hsize_t rows = 0, first_row = 0, row_count = 1;
};

// One row per MPI rank of comm: {comm, rank, size, size, rank, 1}.
Context mpi_context(MPI_Comm comm);
// One process of comm (rank 0 of a singleton) writes all `ranks` rows.
Context virtual_ranks_context(MPI_Comm comm, hsize_t ranks);

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*closer)(hid_t)) : id_(id), close_(closer) {}
  ~Handle();
  Handle(Handle&& o) noexcept;
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }
  // Closes now and returns the status (the destructor ignores it).
  herr_t close();

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// Every rank passes whether its part succeeded; throws Error on every rank unless all did (and
// no call since the last agreement failed). The message names the lowest failing rank, its
// first failed call (or `what`), and that rank's detail (HDF5 or errno text).
void agree(const Context& c, bool ok, const std::string& what, const std::string& detail = "");
// The innermost message of this thread's HDF5 error stack (empty if none); clears the stack.
std::string last_error();

Handle create_file(const Context& c, const std::string& path);
// Collective close with agreement: a failure to flush metadata is a failed write.
void close_file(const Context& c, Handle& file);
Handle create_group(const Context& c, hid_t parent, const std::string& name);
Handle open_group(const Context& c, hid_t parent, const std::string& name);
// Whether parent has a link `name` (a local query: every rank gets the same answer on one file).
bool group_exists(hid_t parent, const std::string& name);
Handle open_dataset(const Context& c, hid_t parent, const std::string& name);

// Attributes (identical value on every rank).
void attr(const Context& c, hid_t obj, const std::string& name, const std::string& value);
void attr(const Context& c, hid_t obj, const std::string& name, std::int64_t value);
void attr(const Context& c, hid_t obj, const std::string& name, const std::vector<std::string>& values);

template <class T>
void rows(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& row_dims,
          const std::vector<T>& local, const char* units);
template <class T>
void global(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
            const std::vector<T>& data, const char* units);
void global_scalar(const Context& c, hid_t parent, const std::string& name, double value, const char* units);
void global_scalar(const Context& c, hid_t parent, const std::string& name, std::int64_t value, const char* units);
void global_text(const Context& c, hid_t parent, const std::string& name, const std::string& text);
// [F] fixed-length strings, the same on every rank (rank 0 writes them).
void global_text_list(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& list);
// [P, k] fixed-length strings: row_count x k strings, row after row.
void rows_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local);
// [P] fixed-length strings: one string per row of the block.
void rank_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local);
inline void rank_text(const Context& c, hid_t parent, const std::string& name, const std::string& local) {
  rank_text(c, parent, name, std::vector<std::string>{local});
}

}  // namespace desync::h5
