#include "core/log.hpp"

#include <map>
#include <vector>

namespace desync::log {
namespace {
int g_rank = 0;
}

void set_rank(int rank) { g_rank = rank; }
bool is_root() { return g_rank == 0; }

std::string printable(const std::string& s, std::size_t max) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  if (out.size() > max) out = out.substr(0, max) + "...";
  return out;
}

void error(const std::string& message) {
  if (is_root()) {
    std::string m = message;
    while (!m.empty() && m.back() == '\n') m.pop_back();
    fmt::print(stderr, "{}\n", printable(m));
    std::fflush(stderr);
  }
}

namespace {
// "0-3, 7, 9-10"
std::string rank_ranges(const std::vector<int>& r) {
  std::string s;
  for (std::size_t i = 0; i < r.size();) {
    std::size_t j = i;
    while (j + 1 < r.size() && r[j + 1] == r[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + (i == j ? std::to_string(r[i]) : std::to_string(r[i]) + "-" + std::to_string(r[j]));
    i = j + 1;
  }
  return s;
}
}  // namespace

void gathered(MPI_Comm comm, const std::string& text, const std::string& heading) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(text.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size), 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) displs[static_cast<std::size_t>(r)] = displs[static_cast<std::size_t>(r - 1)] + lens[static_cast<std::size_t>(r - 1)];
    all.resize(static_cast<std::size_t>(displs.back() + lens.back()));
  }
  MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm);
  if (rank != 0) return;
  std::map<std::string, std::vector<int>> by_text;
  for (int r = 0; r < size; ++r) {
    std::string t = all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]), static_cast<std::size_t>(lens[static_cast<std::size_t>(r)]));
    while (!t.empty() && t.back() == '\n') t.pop_back();
    if (!t.empty()) by_text[t].push_back(r);
  }
  for (const auto& [t, ranks] : by_text) {
    fmt::print(stderr, "desync: {} (rank{} {}):\n", heading, ranks.size() > 1 ? "s" : "", rank_ranges(ranks));
    std::size_t pos = 0;
    while (pos <= t.size()) {
      const std::size_t nl = t.find('\n', pos);
      fmt::print(stderr, "  | {}\n", t.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
  }
  std::fflush(stderr);
}

}  // namespace desync::log
