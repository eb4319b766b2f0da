#pragma once
// Thin, checked wrappers over parallel HDF5. Every call's status is checked; handles are RAII.
// All functions are collective over the file's communicator: "rows" functions write one row per
// rank (dimension 0 = rank), "global" functions write data every rank holds identically (rank 0
// writes, the others select nothing, as parallel HDF5 wants every rank in the call).
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace desync::h5 {

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t), const char* what);
  ~Handle();
  Handle(Handle&& o) noexcept;
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

void check(herr_t status, const char* what);

struct Context {
  MPI_Comm comm;
  int rank, size;
};

Handle create_file(const std::string& path, MPI_Comm comm);
Handle create_group(hid_t parent, const std::string& name);

// Attributes (identical value on every rank).
void attr(hid_t obj, const std::string& name, const std::string& value);
void attr(hid_t obj, const std::string& name, std::int64_t value);
void attr(hid_t obj, const std::string& name, const std::vector<std::string>& values);

template <class T>
void rows(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& row_dims,
          const std::vector<T>& local, const char* units);
template <class T>
void global(const Context& c, hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
            const std::vector<T>& data, const char* units);
void global_scalar(const Context& c, hid_t parent, const std::string& name, double value, const char* units);
void global_scalar(const Context& c, hid_t parent, const std::string& name, std::int64_t value, const char* units);
void global_text(const Context& c, hid_t parent, const std::string& name, const std::string& text);
// [P, k] fixed-length strings: this rank's k strings.
void rows_text(const Context& c, hid_t parent, const std::string& name, const std::vector<std::string>& local);
// [P] fixed-length strings: this rank's one string.
void rank_text(const Context& c, hid_t parent, const std::string& name, const std::string& local);

}  // namespace desync::h5
