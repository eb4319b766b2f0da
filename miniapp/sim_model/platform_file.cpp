#include "sim_model/platform_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "config/overrides.hpp"
#include "config/suggest.hpp"
#include "config/table_reader.hpp"
#include "core/errors.hpp"
#include "core/small_file.hpp"

namespace desync::sim {
namespace {

constexpr double huge = std::numeric_limits<double>::max();
const std::vector<std::string> tables{"platform", "node", "memory", "core", "network", "placement"};

// A key every platform must give (no sensible default exists for a machine).
double required_real(TableReader& r, std::string_view key, double min, double max, const std::string& why) {
  if (!r.has(key)) r.fail(key, "missing; " + why);
  return r.real(key, 0.0, min, max);
}

void reject_unknown_tables(const toml::table& root, const std::string& path, const std::vector<std::string>& overrides) {
  for (const auto& [k, node] : root) {
    if (std::find(tables.begin(), tables.end(), k.str()) != tables.end()) continue;
    std::string valid;
    for (const auto& t : tables) valid += (valid.empty() ? "" : ", ") + t;
    // A table a --pset created is not in the file: name the argument (the first that made it).
    std::string where = describe(k.source(), describe(node.source(), path));
    for (const auto& o : overrides)
      if (o.rfind(std::string(k.str()) + ".", 0) == 0) {
        where = "command line (--pset " + o + ")";
        break;
      }
    throw DeckError(fmt::format("{}: error: unknown table or key '{}' at the top level of the platform{} (valid tables: {})",
                                where, k.str(), did_you_mean(k.str(), tables), valid));
  }
}

const toml::table* table_of(const toml::table& root, const char* name, const std::string& path) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  if (!n->is_table()) throw DeckError(fmt::format("{}: error: '{}' must be a table [{}]", describe(n->source(), path), name, name));
  return n->as_table();
}

void read_memory(TableReader r, Platform& p) {
  if (r.has("table")) {
    if (r.has("b1") || r.has("b_saturated"))
      r.fail("table", "give either the measured table b(1..k) or b1 and b_saturated, not both");
    p.memory_table = r.real_list("table", {}, 1, static_cast<std::size_t>(p.cores_per_domain));
    for (std::size_t i = 0; i < p.memory_table.size(); ++i) {
      if (!(p.memory_table[i] > 0.0)) r.fail("table", "every b(n) must be > 0 B/s");
      if (i > 0 && p.memory_table[i] < p.memory_table[i - 1])
        r.fail("table", fmt::format("b(n) must not decrease with n (b({}) < b({}))", i + 1, i));
    }
    p.b1 = p.memory_table.front();
    p.b_saturated = p.memory_table.back();
  } else {
    p.b1 = required_real(r, "b1", 1.0, huge, "one core's memory bandwidth in B/s (or a measured table)");
    p.b_saturated = required_real(r, "b_saturated", 1.0, huge, "the domain's saturated bandwidth in B/s (or a measured table)");
    if (p.b_saturated < p.b1) r.fail("b_saturated", fmt::format("must be >= b1 = {} B/s", p.b1));
  }
  r.finish();
}

void read_network(TableReader r, Platform& p) {
  p.intra_latency = required_real(r, "intra_node_latency", 0.0, 1.0, "seconds of a message inside a node");
  p.intra_bandwidth = required_real(r, "intra_node_bandwidth", 1.0, huge, "B/s inside a node");
  p.inter_latency = required_real(r, "inter_node_latency", 0.0, 1.0, "seconds of a message between nodes");
  p.inter_bandwidth = required_real(r, "inter_node_bandwidth", 1.0, huge, "B/s between nodes");
  if (p.inter_latency < p.intra_latency)
    r.fail("inter_node_latency", fmt::format("must be >= intra_node_latency = {} s (the route adds the node's link)", p.intra_latency));
  p.eager_limit_intra = r.integer("eager_limit_intra", 4096, 0, std::numeric_limits<std::int64_t>::max());
  p.eager_limit_inter = r.integer("eager_limit_inter", 65536, 0, std::numeric_limits<std::int64_t>::max());
  p.receiver_links = r.boolean("receiver_links", false);
  p.sync_latency = r.real("sync_latency", p.inter_latency, 0.0, 1.0);
  r.finish();
}

void read_placement(TableReader r, Platform& p) {
  p.threads_per_rank = static_cast<int>(r.integer("threads_per_rank", 1, 1, 1 << 16));
  p.oversubscribe = r.boolean("oversubscribe", false);
  const int cores = p.cores_per_node();
  const int fit = std::max(1, cores / p.threads_per_rank);
  p.ranks_per_node = static_cast<int>(r.integer("ranks_per_node", fit, 1, 1 << 20));
  if (p.threads_per_rank > p.cores_per_domain)
    r.fail("threads_per_rank", fmt::format("a rank spanning several memory domains is not modelled: at most "
                                           "cores_per_domain = {}", p.cores_per_domain));
  if (p.cores_per_domain % p.threads_per_rank != 0)
    r.fail("threads_per_rank", fmt::format("must divide cores_per_domain = {} (a rank's threads stay in one domain)",
                                           p.cores_per_domain));
  const int per_domain = (p.ranks_per_node + p.domains - 1) / p.domains;
  if (per_domain * p.threads_per_rank > p.cores_per_domain && !p.oversubscribe)
    r.fail("ranks_per_node", fmt::format("{} ranks x {} threads over {} domains put {} threads on {} cores of a domain; "
                                         "use fewer, or oversubscribe = true",
                                         p.ranks_per_node, p.threads_per_rank, p.domains,
                                         per_domain * p.threads_per_rank, p.cores_per_domain));
  r.finish();
}

}  // namespace

double Platform::domain_bandwidth(int n) const {
  if (n <= 0) return 0.0;
  if (!memory_table.empty()) return memory_table[static_cast<std::size_t>(std::min<int>(n, static_cast<int>(memory_table.size())) - 1)];
  return std::min(n * b1, b_saturated);
}

int Platform::saturation_point() const {
  const double top = domain_bandwidth(cores_per_domain);
  for (int n = 1; n <= cores_per_domain; ++n)
    if (domain_bandwidth(n) >= (1.0 - 1e-9) * top) return n;
  return cores_per_domain;
}

namespace {

Platform parse(const std::string& text, const std::string& path, const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw DeckError(fmt::format("{}: error: invalid TOML: {}", describe(e.source(), path), e.description()));
  }
  for (const auto& o : overrides) apply_override(root, o);
  reject_unknown_tables(root, path, overrides);

  Platform p;
  p.path = path;
  p.text = text;
  toml::table out;
  auto section = [&](const char* name) {
    out.insert_or_assign(name, toml::table{});
    return TableReader(table_of(root, name, path), name, *out.get(name)->as_table(), path);
  };
  {
    TableReader r = section("platform");
    if (!r.has("name")) r.fail("name", "missing; a short name of the machine (it becomes the simulated host names)");
    p.name = r.string("name", "");
    if (p.name.empty() || p.name.find_first_of(" \t\n/") != std::string::npos)
      r.fail("name", "must be a non-empty word without blanks or '/'");
    p.description = r.string("description", "");
    r.finish();
  }
  {
    TableReader r = section("node");
    p.nodes = static_cast<int>(r.integer("count", 1, 1, 1 << 20));
    p.sockets = static_cast<int>(r.integer("sockets", 1, 1, 64));
    p.domains = static_cast<int>(r.integer("domains", p.sockets, 1, 1024));
    if (p.domains % p.sockets != 0) r.fail("domains", fmt::format("must be a multiple of sockets = {}", p.sockets));
    if (!r.has("cores_per_domain")) r.fail("cores_per_domain", "missing; the cores of one memory contention domain");
    p.cores_per_domain = static_cast<int>(r.integer("cores_per_domain", 1, 1, 4096));
    r.finish();
  }
  read_memory(section("memory"), p);
  {
    TableReader r = section("core");
    p.divide_time = r.real("divide_time", 0.0, 0.0, 1.0);
    p.gemm_flops = r.real("gemm_flops", 0.0, 0.0, 1e15);
    r.finish();
  }
  read_network(section("network"), p);
  read_placement(section("placement"), p);
  std::ostringstream os;
  os << out;
  p.resolved = os.str();
  return p;
}

}  // namespace

Platform parse_platform(const std::string& text, const std::string& path, const std::vector<std::string>& overrides) {
  try {
    return parse(text, path, overrides);
  } catch (const DeckError& e) {
    // The deck's override machinery names --set; a platform value is overridden with --pset.
    std::string m = e.what();
    for (std::size_t at = 0; (at = m.find("--set ", at)) != std::string::npos; at += 7) m.replace(at, 6, "--pset ");
    throw DeckError(m);
  }
}

Platform load_platform(const std::string& path, const std::vector<std::string>& overrides) {
  std::string text;
  if (const std::string failure = read_small_file(path, "platform file", text); !failure.empty())
    throw DeckError(failure + " (see platforms/ for the shipped ones)");
  return parse_platform(text, path, overrides);
}

int nodes_needed(const Platform& p, int ranks) {
  const int nodes = (ranks + p.ranks_per_node - 1) / p.ranks_per_node;
  if (nodes > p.nodes)
    throw DeckError(fmt::format("desync: error: --ranks {}: at placement.ranks_per_node = {} they need {} nodes, but "
                                "{} has [node] count = {} (with --pset overrides); allowed: --ranks 1..{}, or more "
                                "nodes (--pset node.count={})",
                                ranks, p.ranks_per_node, nodes, p.path, p.nodes,
                                static_cast<std::int64_t>(p.nodes) * p.ranks_per_node, nodes));
  return nodes;
}

RankPlace place_rank(const Platform& p, int rank, int ranks) {
  RankPlace x;
  x.node = rank / p.ranks_per_node;
  const int local = rank % p.ranks_per_node;
  x.ranks_on_node = std::min(p.ranks_per_node, ranks - x.node * p.ranks_per_node);
  // Domain d of the node holds the ranks l with floor(l * domains / n) == d: blocks as even as can be.
  const int n = x.ranks_on_node;
  x.domain_in_node = static_cast<int>(static_cast<std::int64_t>(local) * p.domains / n);
  // floor(l D / n) >= d exactly when l >= ceil(d n / D): the domain's first local rank and the next one's.
  const auto start = [&](int d) { return static_cast<int>((static_cast<std::int64_t>(d) * n + p.domains - 1) / p.domains); };
  const int first = start(x.domain_in_node), end = std::min(n, start(x.domain_in_node + 1));
  x.ranks_in_domain = end - first;
  x.domain = x.node * p.domains + x.domain_in_node;
  x.socket = x.domain_in_node / (p.domains / p.sockets);
  const int threads = x.ranks_in_domain * p.threads_per_rank;
  x.core_share = threads > p.cores_per_domain ? static_cast<double>(p.cores_per_domain) / threads : 1.0;
  x.first_core = x.domain_in_node * p.cores_per_domain + ((local - first) * p.threads_per_rank) % p.cores_per_domain;
  return x;
}

}  // namespace desync::sim
