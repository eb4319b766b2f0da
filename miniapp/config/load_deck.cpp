// The deck schema: the shared tables ([run], [comm], [[inject]], [noise], [threads]) with every
// key, default and allowed range, and the assembly of a Config (workload tables in
// load_workload_tables.cpp, [matrix] in load_matrix.cpp). docs/decks.md mirrors these files.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <regex>
#include <sstream>

#include "config/config.hpp"
#include "config/load_matrix.hpp"
#include "config/load_workload_tables.hpp"
#include "config/overrides.hpp"
#include "config/suggest.hpp"
#include "config/table_reader.hpp"

namespace desync {
namespace {

constexpr auto int_max = std::numeric_limits<std::int64_t>::max();

// Tables a deck may hold: every table some workload of the registry reads, in registry order.
const std::vector<std::string>& known_tables_list() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> v;
    for (const auto& w : workload_names)
      for (const auto& t : workload_tables(w.value))
        if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
    return v;
  }();
  return list;
}

const toml::table* table_or_throw(const toml::table& root, const std::string& name,
                                  const std::string& deck) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  if (const auto* t = n->as_table()) return t;
  throw DeckError(fmt::format("{}: error: '{}' must be a table ([{}])", describe(n->source(), deck),
                              name, name));
}

RunConfig read_run(TableReader& r) {
  RunConfig c;
  c.workload = r.choice("workload", c.workload, workload_names);
  c.iterations = r.integer("iterations", c.iterations, 1, int_max / 64);
  c.warmup = r.integer("warmup", c.warmup, 0, int_max / 64);
  c.barrier = r.boolean("barrier", c.barrier);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 1, 0, int_max));
  c.output = r.string("output", c.output);
  c.output_pos = r.position("output");
  c.overwrite = r.boolean("overwrite", c.overwrite);
  c.progress_interval = r.real("progress_interval", c.progress_interval, 0.0, 1e6);
  c.memory_limit_gib = r.real("memory_limit_gib", c.memory_limit_gib, 0.0, 1e9);
  read_stream_table_keys(r, c);
  r.finish();
  return c;
}

// ChebFD counts degree steps, not [run] iterations: an explicit `iterations` would be ignored, and
// a warm-up must leave at least one measured step. The default warm-up is min(10, steps - 1).
void resolve_chebfd_run(RunConfig& run, const ChebfdConfig& c, const TableReader& r, toml::table& out) {
  const std::int64_t steps = chebfd_steps(c);
  if (r.has("iterations"))
    r.fail("iterations", fmt::format("not used by workload \"chebfd\": its iterations are the {} degree steps "
                                     "(np - 1 per block); set [chebfd] np instead", steps));
  if (r.has("warmup")) {
    if (run.warmup >= steps)
      r.fail("warmup", fmt::format("workload \"chebfd\" has {} degree steps; allowed: 0..{} (at least one measured step)",
                                   steps, steps - 1));
  } else {
    run.warmup = std::min<std::int64_t>(run.warmup, steps - 1);
    out.insert_or_assign("warmup", run.warmup);
  }
  run.iterations = steps - run.warmup;
  out.erase("iterations");  // derived, not a key of chebfd decks: the resolved deck reloads as is
}

// [comm]: the communication layer's options, for every workload. Until session 2 it held the
// triad's partner pattern; those keys now live in [triad] and get an error that says so.
CommConfig read_comm(TableReader r, Workload w) {
  CommConfig c;
  if (w == Workload::toy) {  // the study's toys: blocking sends and an MPI_Allreduce per iteration
    c.send = SendMode::blocking;
    c.sync = SyncMode::allreduce;
  }
  if (w == Workload::collbench) c.sync = SyncMode::barrier;  // repetitions start together, as in OSU's benchmarks
  for (const char* moved : {"offsets", "boundary", "message_bytes"})
    if (r.has(moved))
      r.fail(moved, fmt::format("moved to [triad] {} (the triad's partner pattern); [comm] now holds the "
                                "communication options of every workload (docs/decks.md)", moved));
  c.send = r.choice("send", c.send, send_mode_names);
  c.progress = r.choice("progress", c.progress, progress_mode_names);
  c.progress_pos = r.position("progress");
  c.test_interval = r.integer("test_interval", c.test_interval, 0, std::int64_t{1} << 40);
  r.only_where_used("test_interval", c.progress == ProgressMode::test, c.test_interval, CommConfig{}.test_interval,
                    "only used with progress = \"test\" (the work between two MPI_Testall calls)");
  c.fragment_bytes = r.integer("fragment_bytes", c.fragment_bytes, 0, std::numeric_limits<int>::max());
  if (collective_workload(w)) {
    // Their collectives and block transfers are single MPI calls per part: no send mode,
    // fragments or progress mode of the point-to-point exchange applies.
    const std::string why = fmt::format("not used by workload \"{}\" (collectives over sub-communicators: "
                                        "communicators is N_DUP, the parts of each pipelined operation)",
                                        enum_name(workload_names, w));
    r.only_where_used("send", false, c.send, CommConfig{}.send, why);
    r.only_where_used("progress", false, c.progress, CommConfig{}.progress, why);
    r.only_where_used("fragment_bytes", false, c.fragment_bytes, CommConfig{}.fragment_bytes, why);
  }
  c.gpu_aware_mpi = r.choice("gpu_aware_mpi", c.gpu_aware_mpi, gpu_aware_mpi_names);
  // Staging applies to buffers in the default memory space (device memory in a GPU build): the
  // halo exchanges and the collectives of matvec2d and symmsquarecube. The triad's, toy's,
  // ping-pong's and collbench's messages are host buffers.
  const bool device_buffers = w == Workload::spmv || w == Workload::chebfd || w == Workload::stencil || w == Workload::cg ||
                              w == Workload::matvec2d || w == Workload::symmsquarecube;
  r.only_where_used("gpu_aware_mpi", device_buffers, c.gpu_aware_mpi, CommConfig{}.gpu_aware_mpi,
                    fmt::format("not used by workload \"{}\": its messages are not in device memory (only those of "
                                "spmv, chebfd, stencil, cg, matvec2d and symmsquarecube are)",
                                enum_name(workload_names, w)));
  c.communicators = r.integer("communicators", c.communicators, 1, 64);
  c.sync = r.choice("sync", c.sync, sync_mode_names);
  c.sync_given = r.has("sync");
  c.eager_limit = r.integer("eager_limit", c.eager_limit, 0, std::numeric_limits<int>::max());
  c.record_messages = r.boolean("record_messages", c.record_messages);
  c.record_messages_max = r.integer("record_messages_max", c.record_messages_max, 1, std::int64_t{1} << 31);
  r.finish();
  return c;
}

std::vector<InjectConfig> read_inject(const toml::table& root, toml::table& out,
                                      const RunConfig& run, const std::string& deck) {
  std::vector<InjectConfig> list;
  const toml::node* n = root.get("inject");
  if (!n) return list;
  const auto* arr = n->as_array();
  if (!arr || !arr->is_array_of_tables())
    throw DeckError(fmt::format("{}: error: 'inject' must be an array of tables ([[inject]] per delay)",
                                describe(n->source(), deck)));
  toml::array resolved;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    toml::table entry;
    TableReader r(arr->get(i)->as_table(), fmt::format("inject[{}]", i), entry, deck);
    InjectConfig c;
    if (!r.has("rank")) r.fail("rank", "missing; every [[inject]] needs rank, iteration, duration");
    if (!r.has("iteration")) r.fail("iteration", "missing; every [[inject]] needs rank, iteration, duration");
    if (!r.has("duration")) r.fail("duration", "missing; every [[inject]] needs rank, iteration, duration");
    c.rank = r.integer("rank", 0, 0, int_max);
    c.iteration = r.integer("iteration", 0, -run.warmup, run.iterations - 1);
    c.duration = r.real("duration", 0.0, 1e-9, 3600.0);
    c.rank_pos = r.position("rank");
    c.iteration_pos = r.position("iteration");
    r.finish();
    list.push_back(c);
    resolved.push_back(std::move(entry));
  }
  out.insert_or_assign("inject", std::move(resolved));
  return list;
}

NoiseConfig read_noise(TableReader r) {
  NoiseConfig c;
  c.kind = r.choice("kind", c.kind, noise_kind_names);
  c.mean = r.real("mean", c.mean, 0.0, 10.0);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 0, 0, int_max));
  if (c.kind != NoiseKind::none && c.mean <= 0.0)
    r.fail("mean", "noise needs a mean > 0 seconds (or kind = \"none\")");
  r.finish();
  return c;
}

// Bounds are checked against [run]'s resolved iterations and warm-up (ChebFD's degree steps); the
// write clips to the rows a run recorded (a run stopped early) and says so (record/record_window.cpp).
RecordConfig read_record(TableReader r, const RunConfig& run) {
  RecordConfig c;
  c.window_given = r.has("window");
  const std::vector<std::int64_t> w =
      r.integer_list("window", {-run.warmup, run.iterations}, -run.warmup, std::int64_t{1} << 40);
  if (w.size() != 2 || w[0] >= w[1])
    r.fail("window", fmt::format("give [first, end): two iteration numbers in the deck's numbering (warm-up -{}..-1, "
                                 "measured 0..{}), first < end, e.g. [0, {}]",
                                 run.warmup, run.iterations - 1, std::min<std::int64_t>(run.iterations, 200)));
  c.window_begin = w[0];
  c.window_end = w[1];
  c.stride = r.integer("stride", 1, 1, std::int64_t{1} << 40);
  r.finish();
  return c;
}

ThreadsConfig read_threads(TableReader r) {
  ThreadsConfig c;
  const auto n = r.integer_or_word("per_rank", c.per_rank, 0, 4096, "domain");
  c.per_domain = !n.has_value();
  c.per_rank = n.value_or(0);
  r.finish();
  return c;
}

void reject_unknown_tables(const toml::table& root, const std::string& deck,
                           const std::vector<std::string>& overrides) {
  for (const auto& [k, node] : root) {
    bool ok = false;
    for (const auto& t : known_tables_list()) ok = ok || t == k.str();
    if (ok) continue;
    std::string valid;
    for (const auto& t : known_tables_list()) valid += (valid.empty() ? "" : ", ") + t;
    // A table created by --set has no position in the deck: name the override instead.
    std::string where = describe(k.source(), describe(node.source(), deck));
    for (const auto& o : overrides)
      if (o.rfind(std::string(k.str()) + ".", 0) == 0) where = "command line (--set " + o + ")";
    throw DeckError(fmt::format("{}: error: unknown table or key '{}' at the top level; did you mean '{}'? "
                                "(valid tables: {})",
                                where, k.str(),
                                closest(k.str(), known_tables_list()), valid));
  }
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

// A table the chosen workload does not read would be silently ignored: refuse it, naming where
// it came from and what the workload reads.
void reject_foreign_tables(const toml::table& root, Workload w, const std::string& deck,
                           const std::vector<std::string>& overrides) {
  const auto& allowed = workload_tables(w);
  for (const auto& [k, node] : root) {
    if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
    std::string where = describe(k.source(), describe(node.source(), deck));
    for (const auto& o : overrides)
      if (o.rfind(std::string(k.str()) + ".", 0) == 0) where = "command line (--set " + o + ")";
    std::string list;
    for (const auto& t : allowed) list += (list.empty() ? "[" : ", [") + t + "]";
    throw DeckError(fmt::format("{}: error: table [{}] is not used by workload \"{}\" (it reads {}); remove it, "
                                "or choose the workload that uses it with [run] workload",
                                where, k.str(), enum_name(workload_names, w), list));
  }
}

}  // namespace

std::int64_t chebfd_steps(const ChebfdConfig& c) {
  return c.scheme == ChebfdScheme::pipeline ? c.np - 1 : (c.ns / c.nb) * (c.np - 1);
}

Config load_deck(const std::string& deck_text, const std::string& deck_path,
                 const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    root = toml::parse(deck_text, deck_path);
  } catch (const toml::parse_error& e) {
    throw DeckError(fmt::format("{}: error: invalid TOML: {}", describe(e.source(), deck_path),
                                e.description()));
  }
  for (const auto& o : overrides) apply_override(root, o);
  reject_unknown_tables(root, deck_path, overrides);

  Config c;
  c.deck_path = deck_path;
  c.deck_text = deck_text;
  c.overrides = overrides;
  toml::table out;
  auto section = [&](const char* name) {
    out.insert_or_assign(name, toml::table{});
    return TableReader(table_or_throw(root, name, deck_path), name, *out.get(name)->as_table(),
                       deck_path);
  };
  TableReader run_reader = section("run");
  c.run = read_run(run_reader);
  reject_foreign_tables(root, c.run.workload, deck_path, overrides);
  const auto uses = [&](const char* t) {
    const auto& v = workload_tables(c.run.workload);
    return std::find(v.begin(), v.end(), t) != v.end();
  };
  if (uses("triad")) c.triad = read_triad(section("triad"));
  if (uses("spmv")) c.spmv = read_spmv(section("spmv"));
  if (uses("stencil")) c.stencil = read_stencil(section("stencil"));
  if (uses("chebfd")) c.chebfd = read_chebfd(section("chebfd"));
  if (uses("pingpong")) c.pingpong = read_pingpong(section("pingpong"));
  if (uses("toy")) c.toy = read_toy(section("toy"));
  if (uses("cg")) c.cg = read_cg(section("cg"));
  if (uses("collbench")) c.collbench = read_collbench(section("collbench"));
  if (uses("matvec2d")) c.matvec2d = read_matvec2d(section("matvec2d"));
  if (uses("symmsquarecube")) c.ssc = read_symmsquarecube(section("symmsquarecube"));
  if (uses("saturation")) c.saturation = read_saturation(section("saturation"));
  if (uses("placement")) c.placement = read_placement(section("placement"));
  if (uses("comm")) c.comm = read_comm(section("comm"), c.run.workload);
  if (uses("noise")) c.noise = read_noise(section("noise"));
  c.threads = read_threads(section("threads"));
  if (uses("inject")) c.inject = read_inject(root, out, c.run, deck_path);
  if (uses("matrix")) {
    c.has_matrix = root.contains("matrix");
    if (!c.has_matrix)
      throw DeckError(deck_path + ": error: workload \"" + std::string(enum_name(workload_names, c.run.workload)) +
                      "\" needs a [matrix] table (generator and its parameters)");
    c.matrix = read_matrix(section("matrix"));
    if (c.matrix.format == MatrixFormat::sell) {
      if (c.run.workload != Workload::spmv && c.run.workload != Workload::chebfd)
        throw DeckError(fmt::format("{}: error: [matrix] format = \"sell\": workload \"{}\" runs CRS kernels only; "
                                    "SELL-C-sigma serves \"spmv\" and \"chebfd\" (allowed here: \"crs\")",
                                    c.matrix.format_where, enum_name(workload_names, c.run.workload)));
      if (c.run.workload == Workload::spmv && c.spmv.kernel == SpmvKernel::kokkoskernels)
        throw DeckError(fmt::format("{}: error: [matrix] format = \"sell\" with [spmv] kernel = \"kokkoskernels\": "
                                    "KokkosKernels' spmv reads CRS; use kernel = \"desync\" or format = \"crs\"",
                                    c.matrix.format_where));
    }
    if (c.run.workload == Workload::cg && c.matrix.generator != GeneratorKind::minife && c.matrix.generator != GeneratorKind::stencil5)
      throw DeckError(fmt::format("{}: error: [matrix] generator = \"{}\": workload \"cg\" needs a symmetric positive definite "
                                  "matrix; allowed: \"minife\", \"stencil5\" (with its default weights)",
                                  deck_path, enum_name(generator_names, c.matrix.generator)));
    if (c.run.workload == Workload::cg && c.matrix.generator == GeneratorKind::stencil5) {
      // Symmetric (x-1 = x+1, y-1 = y+1), non-positive neighbours, centre at least their sum:
      // with the Dirichlet boundary an irreducibly diagonally dominant M-matrix, hence SPD.
      const auto& w = c.matrix.stencil5.weights;
      const bool spd = w[1] == w[2] && w[3] == w[4] && w[1] <= 0 && w[3] <= 0 && w[0] > 0 && w[0] >= -(w[1] + w[2] + w[3] + w[4]);
      if (!spd)
        throw DeckError(fmt::format("{}: error: [matrix.stencil5] weights = [{}, {}, {}, {}, {}]: workload \"cg\" needs a "
                                    "symmetric positive definite matrix: x-1 = x+1 and y-1 = y+1, neighbours <= 0, centre > 0 "
                                    "and >= minus their sum (e.g. [4, -1, -1, -1, -1])",
                                    deck_path, w[0], w[1], w[2], w[3], w[4]));
    }
  }
  // [run] barrier (and ChebFD's barrier_per_degree) say sync = "barrier" in the older words.
  const bool barrier_alias = c.run.barrier || (c.run.workload == Workload::chebfd && c.chebfd.barrier_per_degree);
  if (barrier_alias) {
    if (c.comm.sync == SyncMode::allreduce && c.comm.sync_given)
      throw DeckError(fmt::format("{}: error: [run] barrier = true (or [chebfd] barrier_per_degree) asks for a barrier "
                                  "but [comm] sync = \"allreduce\"; keep one of them", deck_path));
    c.comm.sync = SyncMode::barrier;
    out.get("comm")->as_table()->insert_or_assign("sync", "barrier");
  }
  if (c.run.workload == Workload::chebfd) resolve_chebfd_run(c.run, c.chebfd, run_reader, *out.get("run")->as_table());
  // After ChebFD resolved its iterations (degree steps) and warm-up: the window is checked against them.
  if (uses("record")) c.record = read_record(section("record"), c.run);
  validate_workload_deck(c);

  std::ostringstream os;
  os << out;
  c.resolved_toml = shortest_floats(os.str()) + "\n";
  return c;
}

void validate_for_ranks(const Config& cfg, int nranks) {
  for (std::size_t i = 0; i < cfg.inject.size(); ++i) {
    const auto& inj = cfg.inject[i];
    if (inj.rank >= nranks)
      throw DeckError(fmt::format("{}: error: [inject[{}]] rank = {}: no such rank; the run has {} "
                                  "rank(s), allowed: 0..{}",
                                  inj.rank_pos.where, i, inj.rank, nranks, nranks - 1));
  }
  if (cfg.has_matrix && cfg.matrix.partition == PartitionKind::box) {
    const auto& g = cfg.matrix.minife.grid;
    if (g[0] * g[1] * g[2] != nranks)
      throw DeckError(fmt::format("{}: error: [matrix] partition = \"box\" gives rank k box k of [matrix.minife] grid = "
                                  "[{}, {}, {}], {} boxes, but the run has {} rank(s); make px * py * pz = {}",
                                  cfg.deck_path, g[0], g[1], g[2], g[0] * g[1] * g[2], nranks, nranks));
  }
  validate_workload_for_ranks(cfg, nranks);
}

std::string output_path(const Config& cfg) {
  if (!cfg.run.output.empty()) return cfg.run.output;
  return std::filesystem::path(cfg.deck_path).stem().string() + ".h5";
}

}  // namespace desync
