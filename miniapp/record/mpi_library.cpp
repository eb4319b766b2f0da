#include "record/mpi_library.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/mpi_util.hpp"

extern char** environ;

namespace desync {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool about_eager(const std::string& name) {
  const std::string n = lower(name);
  if (n.find("ctxid") != std::string::npos) return false;  // MPICH's context-id allocation, not messages
  return n.find("eager") != std::string::npos || n.find("rndv") != std::string::npos ||
         n.find("rendezvous") != std::string::npos;
}

std::vector<std::pair<std::string, std::int64_t>> read_cvars() {
  std::vector<std::pair<std::string, std::int64_t>> out;
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return out;
  int n = 0;
  MPI_T_cvar_get_num(&n);
  for (int i = 0; i < n; ++i) {
    char name[256];
    int name_len = sizeof name, verbosity = 0, bind = 0, scope = 0, desc_len = 0;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, nullptr, &desc_len, &bind, &scope) != MPI_SUCCESS)
      continue;
    if (bind != MPI_T_BIND_NO_OBJECT || !about_eager(name)) continue;
    const bool is32 = type == MPI_INT || type == MPI_UNSIGNED;
    const bool is64 = type == MPI_LONG || type == MPI_UNSIGNED_LONG || type == MPI_LONG_LONG || type == MPI_UNSIGNED_LONG_LONG ||
                      type == MPI_COUNT;
    if (!is32 && !is64) continue;
    MPI_T_cvar_handle h;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(i, nullptr, &h, &count) != MPI_SUCCESS) continue;
    std::int64_t buf[8] = {0};
    if (count == 1) MPI_T_cvar_read(h, buf);
    MPI_T_cvar_handle_free(&h);
    if (count != 1) continue;
    std::int64_t v = buf[0];
    if (is32) {
      std::int32_t x;
      std::memcpy(&x, buf, sizeof x);
      v = x;
    }
    out.emplace_back(name, v);
  }
  // Before MPI_Finalize: Open MPI 4.1 crashes in an MPI_T_finalize that comes after it.
  MPI_T_finalize();
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> eager_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    const bool mpi = name.rfind("OMPI_MCA_", 0) == 0 || name.rfind("MPIR_CVAR_", 0) == 0 || name.rfind("I_MPI_", 0) == 0 ||
                     name.rfind("UCX_", 0) == 0 || name.rfind("MV2_", 0) == 0 || name.rfind("FI_", 0) == 0;
    if (mpi && (about_eager(name) || lower(name).find("thresh") != std::string::npos)) out.push_back(kv);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

MpiLibraryRecord probe_mpi_library(MPI_Comm comm) {
  MpiLibraryRecord r;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  const char* names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
  r.thread_level = names[std::clamp(provided, 0, 3)];
  for (auto& cv : read_cvars()) (cv.second < 0 ? r.deferred_cvars : r.eager_cvars).push_back(std::move(cv));
  r.environment = eager_environment();
  for (const auto& [n, v] : r.eager_cvars) r.text += fmt::format("{} = {}\n", n, v);
  for (const auto& [n, v] : r.deferred_cvars) r.text += fmt::format("{} = {} (set by the library at run time)\n", n, v);
  for (const auto& e : r.environment) r.text += "env " + e + "\n";
  bcast_string(r.thread_level, 0, comm);
  bcast_string(r.text, 0, comm);
  return r;
}

std::string eager_limit_mismatch(const MpiLibraryRecord& r, std::int64_t declared) {
  if (declared <= 0) return {};
  std::string limits, example;
  for (const auto& [n, v] : r.eager_cvars) {
    if (lower(n).find("rndv") != std::string::npos) continue;  // rendezvous protocol sizes, not the limit
    limits += fmt::format("{}{} = {}", limits.empty() ? "" : ", ", n, v);
    // Open MPI's btl_self carries only a rank's messages to itself: neither a match nor the example.
    if (lower(n).find("_self_") != std::string::npos) continue;
    if (v == declared) return {};
    if (example.empty()) example = n;
  }
  if (limits.empty() || example.empty()) return {};
  return fmt::format("[comm] eager_limit = {} matches none of the eager limits the MPI library reports ({}); set the "
                     "library's own variable (e.g. {}) to change it",
                     declared, limits, cvar_environment_name(example));
}

std::string mpi_family() {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(lib, &len);
  const std::string v(lib, static_cast<std::size_t>(len));
  if (v.find("Open MPI") != std::string::npos) return "openmpi";
  if (v.find("MPICH") != std::string::npos || v.find("Intel(R) MPI") != std::string::npos ||
      v.find("MVAPICH") != std::string::npos)
    return "mpich";
  return "other";
}

std::string binding_hint() {
  const std::string f = mpi_family();
  if (f == "openmpi") return "Open MPI: mpiexec --bind-to core";
  if (f == "mpich") return "MPICH's Hydra: mpiexec -bind-to core";
  return "bind each rank to a core with the launcher, e.g. srun --cpu-bind=cores";
}

std::string cvar_environment_name(const std::string& cvar) {
  return cvar.rfind("MPIR_CVAR_", 0) == 0 ? cvar : "OMPI_MCA_" + cvar;
}

}  // namespace desync
