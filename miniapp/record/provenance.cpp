#include "record/provenance.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <ctime>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/allocator.hpp"
#include "core/mpi_util.hpp"
#include "desync/build_info.hpp"
#include "desync_version.hpp"
#include "kokkos_compat/concurrency.hpp"

extern char** environ;

namespace desync {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// 1..max_digits decimal digits at s[i..]; advances i.
bool digits(std::string_view s, std::size_t& i, std::size_t max_digits) {
  std::size_t n = 0;
  while (i < s.size() && is_digit(s[i]) && n < max_digits) ++i, ++n;
  return n > 0 && !(i < s.size() && is_digit(s[i]));
}

// "A.B.C.D:PORT" starting at s[i].
bool ipv4_with_port_at(std::string_view s, std::size_t i) {
  for (int octet = 0; octet < 4; ++octet) {
    if (octet > 0 && (i >= s.size() || s[i++] != '.')) return false;
    if (!digits(s, i, 3)) return false;
  }
  if (i >= s.size() || s[i++] != ':') return false;
  return digits(s, i, 5);
}

// "[hex:...]:PORT" starting at s[i] (the bracket).
bool ipv6_with_port_at(std::string_view s, std::size_t i) {
  std::size_t j = i + 1, colons = 0;
  while (j < s.size() && (is_hex(s[j]) || s[j] == ':' || s[j] == '.')) colons += s[j++] == ':';
  if (colons < 2 || j + 1 >= s.size() || s[j] != ']' || s[j + 1] != ':') return false;
  j += 2;
  return digits(s, j, 5);
}

bool has_address(std::string_view value) {
  if (value.find("://") != std::string_view::npos) return true;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const bool starts_number = is_digit(value[i]) && (i == 0 || (!is_digit(value[i - 1]) && value[i - 1] != '.'));
    if (starts_number && ipv4_with_port_at(value, i)) return true;
    if (value[i] == '[' && ipv6_with_port_at(value, i)) return true;
  }
  return false;
}

}  // namespace

bool environment_entry_is_private(std::string_view name, std::string_view value) {
  std::string upper(name);
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  static const char* secret_words[] = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE",
                                       "PRECONDITION_TRANSPORTS"};  // the last: Open MPI's PSM/OFI job key
  for (const char* w : secret_words)
    if (upper.find(w) != std::string::npos) return true;
  // KEY anywhere (APIKEY, SSH_KEY, ...) except the InfiniBand partition key PKEY (UCX_IB_PKEY), a
  // network setting rather than a secret.
  for (std::size_t at = upper.find("KEY"); at != std::string::npos; at = upper.find("KEY", at + 1))
    if (!(at >= 1 && upper[at - 1] == 'P' && (at == 1 || upper[at - 2] == '_'))) return true;
  // A word starting with URI: HNP_URI, SERVER_URI2, ... but not SECURITY or CURIOUS.
  for (std::size_t at = upper.find("URI"); at != std::string::npos; at = upper.find("URI", at + 1))
    if (at == 0 || upper[at - 1] == '_') return true;
  return has_address(value);
}

std::string placement_environment() {
  static const char* prefixes[] = {"OMP_", "KOKKOS_", "OMPI_", "MPICH_", "I_MPI_", "UCX_", "GOMP_", "KMP_"};
  std::vector<std::string> lines;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view kv = *e;
    const std::size_t eq = kv.find('=');
    const std::string_view name = kv.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : kv.substr(eq + 1);
    bool placement = false;
    for (const char* p : prefixes) placement = placement || name.rfind(p, 0) == 0;
    if (placement && !environment_entry_is_private(name, value)) lines.emplace_back(kv);
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

Provenance collect_provenance(const std::string& command_line, MPI_Comm comm) {
  Provenance p;
  if (comm_rank(comm) == 0) {
    p.desync_version = build::version;
    p.git_revision = build::git_revision;
    p.compiler = fmt::format("{} ({})", build::compiler, build::build_type);
    p.build = fmt::format("{}; flags {}", desync_build_description, *desync_build_cxx_flags ? desync_build_cxx_flags : "none");
    p.kokkos_version = fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
                                   KOKKOS_VERSION % 100);
    p.execution_space = compat::execution_space_name();
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(lib, &len);
    p.mpi_library_version.assign(lib, static_cast<std::size_t>(len));
    while (!p.mpi_library_version.empty() &&
           (p.mpi_library_version.back() == '\n' || p.mpi_library_version.back() == '\0'))
      p.mpi_library_version.pop_back();
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    p.start_time = buf;
    p.command_line = command_line;
    p.environment = placement_environment();
    std::ostringstream os;
    Kokkos::print_configuration(os, false);
    p.kokkos_configuration = os.str();
    p.allocator = allocator_description();
  }
  for (std::string* s : {&p.desync_version, &p.git_revision, &p.compiler, &p.build, &p.kokkos_version,
                         &p.execution_space, &p.mpi_library_version, &p.start_time, &p.command_line,
                         &p.environment, &p.kokkos_configuration, &p.allocator})
    bcast_string(*s, 0, comm);
  return p;
}

}  // namespace desync
