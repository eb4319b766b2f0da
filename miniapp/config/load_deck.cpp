// The deck schema: the shared tables ([run], [comm], [[inject]], [noise], [threads], [record],
// [placement]) with every key, default and allowed range, and the assembly of a Config for the
// workloads of a catalog (each reads its own table: config/workload_deck.hpp; [matrix] in
// load_matrix.cpp). docs/decks.md mirrors these files.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "config/config.hpp"
#include "config/deck_tables.hpp"
#include "config/load_delays.hpp"
#include "config/load_matrix.hpp"
#include "config/locate_key.hpp"
#include "config/overrides.hpp"
#include "config/suggest.hpp"
#include "config/table_reader.hpp"
#include "config/workload_deck.hpp"
#include "core/log.hpp"
#include "matrix/make_generator.hpp"
#include "host/host_threads.hpp"

namespace desync {
namespace {

using Catalog = std::vector<const WorkloadDeck*>;

std::vector<std::string> workload_name_list(const Catalog& catalog) {
  std::vector<std::string> v;
  for (const WorkloadDeck* w : catalog) v.push_back(w->name);
  return v;
}

// The workloads of the catalog with `property`, for messages: "\"a\", \"b\" and \"c\"".
template <class Pred>
std::string names_where(const Catalog& catalog, Pred property) {
  std::vector<std::string> v;
  for (const WorkloadDeck* w : catalog)
    if (property(*w)) v.push_back("\"" + w->name + "\"");
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
  return s;
}

void read_stream_table_keys(TableReader& r, RunConfig& c) {
  c.stream_table = r.boolean("stream_table", c.stream_table);
  c.stream_size = r.integer("stream_size", c.stream_size, 0, std::int64_t{1} << 40);
  if (c.stream_size > 0 && c.stream_size < 1024) r.fail("stream_size", "allowed: 0 (from the node's caches) or >= 1024 elements per array and rank");
  r.only_where_used("stream_size", c.stream_table, c.stream_size, RunConfig{}.stream_size,
                    "only used with stream_table = true (the STREAM table's elements per array and rank)");
}

PlacementConfig read_placement(TableReader r) {
  PlacementConfig c;
  c.ranks_per_node = r.integer("ranks_per_node", c.ranks_per_node, 0, 1 << 20);
  c.ranks_per_node_pos = r.position("ranks_per_node");
  c.active_ppn = r.integer("active_ppn", c.active_ppn, 0, 1 << 20);
  c.active_ppn_pos = r.position("active_ppn");
  r.finish();
  return c;
}

const toml::table* table_or_throw(const toml::table& root, const std::string& name,
                                  const std::string& deck) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  if (const auto* t = n->as_table()) return t;
  throw DeckError(fmt::format("{}: error: '{}' must be a table ([{}])", describe(n->source(), deck),
                              name, name));
}

RunConfig read_run(TableReader& r, const Catalog& catalog) {
  RunConfig c;
  // The catalog's first workload is the default (the registry's order: docs/decks.md).
  c.workload = r.word("workload", catalog.front()->name, workload_name_list(catalog));
  c.iterations = r.integer("iterations", c.iterations, 1, kIntegerKeyMax / 64);
  c.warmup = r.integer("warmup", c.warmup, 0, kIntegerKeyMax / 64);
  c.barrier = r.boolean("barrier", c.barrier);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 1, 0, kIntegerKeyMax));
  c.output = r.string("output", c.output);
  c.output_pos = r.position("output");
  c.overwrite = r.boolean("overwrite", c.overwrite);
  c.progress_interval = r.real("progress_interval", c.progress_interval, 0.0, 1e6);
  c.memory_limit_gib = r.real("memory_limit_gib", c.memory_limit_gib, 0.0, 1e9);
  read_stream_table_keys(r, c);
  r.finish();
  return c;
}

// A workload whose steps follow from its own table (WorkloadDeck::steps, e.g. a filter's degree
// steps) takes no [run] iterations: an explicit one would be ignored, and a warm-up must leave at
// least one measured step. The default warm-up is min(10, steps - 1).
void resolve_own_steps(RunConfig& run, std::int64_t steps, const WorkloadDeck& w, const TableReader& r, toml::table& out) {
  if (r.has("iterations"))
    r.fail("iterations", fmt::format("not used by workload \"{}\": its iterations are the {} {}{}", w.name, steps,
                                     w.steps_name, w.steps_hint.empty() ? "" : " " + w.steps_hint));
  if (r.has("warmup")) {
    if (run.warmup >= steps)
      r.fail("warmup", fmt::format("workload \"{}\" has {} {}; allowed: 0..{} (at least one measured step)", w.name, steps,
                                   w.steps_name, steps - 1));
  } else {
    run.warmup = std::min<std::int64_t>(run.warmup, steps - 1);
    out.insert_or_assign("warmup", run.warmup);
  }
  run.iterations = steps - run.warmup;
  out.erase("iterations");  // derived, not a key of such decks: the resolved deck reloads as is
}

// [comm]: the communication layer's options, for every workload. Keys it held once and that now
// live in a workload's own table (WorkloadDeck::former_comm_keys) get an error that says so.
CommConfig read_comm(TableReader r, const WorkloadDeck& w, const Catalog& catalog) {
  CommConfig c;
  c.send = w.default_send;
  c.sync = w.default_sync;
  for (const WorkloadDeck* d : catalog)
    for (const auto& moved : d->former_comm_keys)
      if (r.has(moved))
        r.fail(moved, fmt::format("moved to [{}] {} (the {} workload's own table); [comm] now holds the "
                                  "communication options of every workload (docs/decks.md)", d->name, moved, d->name));
  c.send = r.choice("send", c.send, send_mode_names);
  c.progress = r.choice("progress", c.progress, progress_mode_names);
  c.progress_pos = r.position("progress");
  c.test_interval = r.integer("test_interval", c.test_interval, 0, std::int64_t{1} << 40);
  r.only_where_used("test_interval", c.progress == ProgressMode::test, c.test_interval, CommConfig{}.test_interval,
                    "only used with progress = \"test\" (the work between two MPI_Testall calls)");
  c.fragment_bytes = r.integer("fragment_bytes", c.fragment_bytes, 0, std::numeric_limits<int>::max());
  if (w.collective) {
    // Their collectives and block transfers are single MPI calls per part: no send mode,
    // fragments or progress mode of the point-to-point exchange applies.
    const std::string why = fmt::format("not used by workload \"{}\" (collectives over sub-communicators: "
                                        "communicators is N_DUP, the parts of each pipelined operation)",
                                        w.name);
    r.only_where_used("send", false, c.send, CommConfig{}.send, why);
    r.only_where_used("progress", false, c.progress, CommConfig{}.progress, why);
    r.only_where_used("fragment_bytes", false, c.fragment_bytes, CommConfig{}.fragment_bytes, why);
  }
  c.gpu_aware_mpi = r.choice("gpu_aware_mpi", c.gpu_aware_mpi, gpu_aware_mpi_names);
  // Staging applies to buffers in the default memory space (device memory in a GPU build); the
  // workload's module says whether its messages live there.
  r.only_where_used("gpu_aware_mpi", w.device_buffers, c.gpu_aware_mpi, CommConfig{}.gpu_aware_mpi,
                    fmt::format("not used by workload \"{}\": its messages are not in device memory (only those of "
                                "{} are)", w.name, names_where(catalog, [](const WorkloadDeck& d) { return d.device_buffers; })));
  c.communicators = r.integer("communicators", c.communicators, 1, 64);
  c.sync = r.choice("sync", c.sync, sync_mode_names);
  c.sync_given = r.has("sync");
  c.sync_every = r.integer("sync_every", c.sync_every, 1, std::int64_t{1} << 40);
  c.eager_limit = r.integer("eager_limit", c.eager_limit, 0, std::numeric_limits<int>::max());
  c.record_messages = r.boolean("record_messages", c.record_messages);
  c.record_messages_max = r.integer("record_messages_max", c.record_messages_max, 1, std::int64_t{1} << 31);
  r.warn_where_unused("record_messages_max", c.record_messages, c.record_messages_max, CommConfig{}.record_messages_max,
                      "only record_messages = true uses it");
  r.finish();
  return c;
}


// The first bound is checked against [run]'s resolved warm-up here; whether the window holds any
// of the rows a run records is checked once the workload's row count is known (workloads/
// registry.hpp, check_record_window); the write cuts a window to the rows a run recorded and says
// so (record/record_window.cpp).
RecordConfig read_record(TableReader r, const RunConfig& run) {
  RecordConfig c;
  c.window_given = r.has("window");
  const std::vector<std::int64_t> w =
      r.integer_list("window", {-run.warmup, run.iterations}, -run.warmup, std::numeric_limits<std::int64_t>::max());
  if (w.size() != 2 || w[0] >= w[1])
    r.fail("window", fmt::format("give [first, end): two iteration numbers in the deck's numbering (warm-up -{}..-1, "
                                 "measured 0..{}), first < end, e.g. [0, {}]",
                                 run.warmup, run.iterations - 1, std::min<std::int64_t>(run.iterations, 200)));
  c.window_begin = w[0];
  c.window_end = w[1];
  c.stride = r.integer("stride", 1, 1, std::int64_t{1} << 40);
  c.flush_given = r.has("flush_seconds");
  c.flush_seconds = r.real("flush_seconds", c.flush_seconds, 0.0, 1e9);
  r.finish();
  return c;
}

ThreadsConfig read_threads(TableReader r) {
  ThreadsConfig c;
  const auto n = r.integer_or_word("per_rank", c.per_rank, 0, backend::max_host_threads, "domain");
  c.per_domain = !n.has_value();
  c.per_rank = n.value_or(0);
  r.finish();
  return c;
}

// toml++ prints doubles with 17 significant digits (0.05 as 0.050000000000000003); the resolved
// deck is for people too, so every number token outside strings gets its shortest form that
// reads back as the same double.
std::string shortest_floats(const std::string& text) {
  static const std::regex number(R"((^|[=\[,\s])(-?[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?)(?=$|[,\]\s]))");
  std::string out, line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (line.find('"') == std::string::npos && line.find('\'') == std::string::npos) {
      std::string fixed;
      auto it = std::sregex_iterator(line.begin(), line.end(), number);
      std::size_t last = 0;
      for (; it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const double v = std::stod(m[2].str());
        std::string shortest = fmt::format("{}", v);
        if (shortest.find_first_of(".eE") == std::string::npos && shortest.find("inf") == std::string::npos &&
            shortest.find("nan") == std::string::npos)
          shortest += ".0";  // stays a TOML float
        fixed += line.substr(last, static_cast<std::size_t>(m.position(2)) - last) + shortest;
        last = static_cast<std::size_t>(m.position(2) + m.length(2));
      }
      line = fixed + line.substr(last);
    }
    out += line + "\n";
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace

Config parse_deck(const std::string& deck_text, const std::string& deck_path, const std::vector<std::string>& overrides,
                  const Catalog& catalog) {
  toml::table root;
  try {
    root = toml::parse(deck_text, deck_path);
  } catch (const toml::parse_error& e) {
    throw DeckError(fmt::format("{}: error: invalid TOML: {}", describe(e.source(), deck_path),
                                e.description()));
  }
  for (const auto& o : overrides) apply_override(root, o);
  reject_unknown_tables(root, deck_path, overrides, catalog);

  Config c;
  c.deck_path = deck_path;
  c.deck_text = deck_text;
  c.overrides = overrides;
  toml::table out;
  auto section = [&](const std::string& name) {
    out.insert_or_assign(name, toml::table{});
    TableReader r(table_or_throw(root, name, deck_path), name, *out.get(name)->as_table(), deck_path);
    r.warn_into(&c.deck_warnings);
    return r;
  };
  TableReader run_reader = section("run");
  c.run = read_run(run_reader, catalog);
  const WorkloadDeck& w = **std::find_if(catalog.begin(), catalog.end(),
                                         [&](const WorkloadDeck* d) { return d->name == c.run.workload; });
  reject_foreign_tables(root, w, deck_path, overrides);
  const auto uses = [&](const char* t) { return std::find(w.tables.begin(), w.tables.end(), t) != w.tables.end(); };
  if (w.read_table) {
    TableReader own = section(w.name);
    w.read_table(own, c);
    own.finish();
  }
  if (uses("placement")) c.placement = read_placement(section("placement"));
  if (uses("comm")) c.comm = read_comm(section("comm"), w, catalog);
  c.threads = read_threads(section("threads"));
  if (uses("matrix")) {
    c.has_matrix = root.contains("matrix");
    if (!c.has_matrix)
      throw DeckError(deck_path + ": error: workload \"" + w.name + "\" needs a [matrix] table (generator and its parameters)");
    c.matrix = read_matrix(section("matrix"));
    if (c.matrix.format == MatrixFormat::sell && !w.sell_format)
      throw DeckError(fmt::format("{}: error: [matrix] format = \"sell\": workload \"{}\" runs CRS kernels only; "
                                  "SELL-C-sigma serves {} (allowed here: \"crs\")",
                                  c.matrix.format_where, w.name,
                                  names_where(catalog, [](const WorkloadDeck& d) { return d.sell_format; })));
  }
  // [run] barrier (and a workload's own barrier key) say sync = "barrier" in the older words.
  const bool barrier_alias = c.run.barrier || (w.asks_barrier && w.asks_barrier(c));
  if (barrier_alias) {
    if (c.comm.sync == SyncMode::allreduce && c.comm.sync_given)
      throw DeckError(fmt::format("{}: error: [run] barrier = true (or the workload's own barrier key) asks for a "
                                  "barrier but [comm] sync = \"allreduce\"; keep one of them", locate(c, "comm.sync")));
    c.comm.sync = SyncMode::barrier;
    out.get("comm")->as_table()->insert_or_assign("sync", "barrier");
  }
  if (c.comm.sync_every != 1 && w.cells_of_repetitions)
    throw DeckError(fmt::format("{}: error: [comm] sync_every = {}: workload \"{}\" times cells of repetitions (a message "
                                "size, a collective), each from its own start, where a sync counted over the run would "
                                "fall differently in every cell; allowed here: 1",
                                locate(c, "comm.sync_every"), c.comm.sync_every, w.name));
  // After the aliases that set a sync; a paired barrier run (compare_barrier) uses it too.
  const bool syncs = c.comm.sync != SyncMode::none || (w.pairs_barrier && w.pairs_barrier(c));
  if (!syncs && c.comm.sync_every != 1)
    c.deck_warnings.push_back(fmt::format("{}: [comm] sync_every = {} has no effect: [comm] sync = \"none\" (no sync to space out)",
                                          locate(c, "comm.sync_every"), c.comm.sync_every));
  if (w.steps) resolve_own_steps(c.run, w.steps(c), w, run_reader, *out.get("run")->as_table());
  // (A workload of its own steps may number its rows otherwise: blocks times degree steps.)
  if (syncs && !w.steps && c.comm.sync_every > c.run.iterations)
    c.deck_warnings.push_back(fmt::format("{}: [comm] sync_every = {} is more than the {} measured iterations: none of them "
                                          "syncs", locate(c, "comm.sync_every"), c.comm.sync_every, c.run.iterations));
  // After the steps are known: [[inject]] and the [record] window are checked against them.
  if (uses("inject")) c.inject = read_inject(root, out, c.run, deck_path);
  if (uses("noise")) c.noise = read_noise(section("noise"), c.run);
  if (uses("record")) c.record = read_record(section("record"), c.run);
  if (w.validate_deck) w.validate_deck(c);
  if (c.comm.progress == ProgressMode::test && !(w.overlapped_work && w.overlapped_work(c))) {
    // Why: the workload's own words (a collective workload never gets here: read_comm refuses
    // progress for it).
    const std::string why = w.no_overlap ? w.no_overlap(c) : "it has no such work";
    throw DeckError(fmt::format("{}: error: [comm] progress = \"test\" tests the messages while the rank computes, "
                                "but workload \"{}\" computes nothing while they are in flight ({}); allowed here: "
                                "\"wait\", \"thread\"",
                                c.comm.progress_pos.where, w.name, why));
  }

  std::ostringstream os;
  os << out;
  c.resolved_toml = shortest_floats(os.str()) + "\n";
  return c;
}

void validate_shared_for_ranks(const Config& cfg, int nranks) {
  for (std::size_t i = 0; i < cfg.inject.size(); ++i) {
    const auto& inj = cfg.inject[i];
    if (inj.rank >= nranks)
      throw DeckError(fmt::format("{}: error: [inject[{}]] rank = {}: no such rank; the run has {} "
                                  "rank(s), allowed: 0..{}",
                                  inj.rank_pos.where, i, inj.rank, nranks, nranks - 1));
  }
  if (cfg.noise.kind == NoiseKind::file && !cfg.noise.table)
    throw std::logic_error("validate_for_ranks: [noise] kind = \"file\" without its table (commands/read_deck.cpp reads it)");
  if (cfg.noise.kind == NoiseKind::file && cfg.noise.table->columns != nranks)
    throw DeckError(fmt::format("{}: error: [noise] file = \"{}\" has {} column(s), one per rank; the run has {} rank(s) "
                                "(a line of the file is an iteration, a column a rank)",
                                cfg.noise.file_pos.where, cfg.noise.file, cfg.noise.table->columns, nranks));
  for (const std::int64_t r : cfg.noise.ranks)
    if (r >= nranks)
      throw DeckError(fmt::format("{}: error: [noise] ranks has rank {}: no such rank; the run has {} rank(s), "
                                  "allowed: 0..{}",
                                  cfg.noise.ranks_pos.where, r, nranks, nranks - 1));
  if (cfg.has_matrix) {
    // A rank without rows computes and exchanges nothing: allowed (its datasets are empty), said.
    const GlobalIndex rows = make_generator(cfg.matrix)->rows();
    if (rows < nranks)
      log::warn("{}: [matrix] has {} rows, fewer than the run's {} rank(s): {} rank(s) own no row and compute nothing\n",
                cfg.deck_path, rows, nranks, nranks - rows);
  }
  if (cfg.has_matrix && cfg.matrix.partition == PartitionKind::box) {
    const auto& g = cfg.matrix.minife.grid;
    if (g[0] * g[1] * g[2] != nranks)
      throw DeckError(fmt::format("{}: error: [matrix] partition = \"box\" gives rank k box k of [matrix.minife] grid = "
                                  "[{}, {}, {}], {} boxes, but the run has {} rank(s); make px * py * pz = {}",
                                  locate(cfg, "matrix.minife.grid"), g[0], g[1], g[2], g[0] * g[1] * g[2], nranks, nranks));
  }
}

std::vector<std::pair<std::string, std::string>> changed_comm_keys(const Config& cfg, const WorkloadDeck& w) {
  std::vector<std::pair<std::string, std::string>> changed;
  const toml::table resolved = toml::parse(cfg.resolved_toml, cfg.deck_path);
  const toml::table* comm = resolved["comm"].as_table();
  if (!comm) return changed;
  toml::table defaults;
  read_comm(TableReader(nullptr, "comm", defaults, cfg.deck_path), w, {&w});
  const auto text_of = [](const toml::node& n) {
    if (n.is_string()) return "\"" + *n.value<std::string>() + "\"";  // as decks write it
    std::ostringstream os;
    n.visit([&](const auto& x) { os << x; });
    return os.str();
  };
  for (const auto& [k, v] : *comm) {
    const toml::node* d = defaults.get(k.str());
    const std::string text = text_of(v);
    if (d && text_of(*d) == text) continue;
    changed.emplace_back(std::string(k.str()), text);
  }
  return changed;
}

std::string output_path(const Config& cfg) {
  if (!cfg.run.output.empty()) return cfg.run.output;
  return std::filesystem::path(cfg.deck_path).stem().string() + ".h5";
}

}  // namespace desync
