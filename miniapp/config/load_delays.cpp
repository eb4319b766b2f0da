// [[inject]] and [noise] (config/load_delays.hpp). docs/decks.md mirrors this file.
#include "config/load_delays.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/errors.hpp"

namespace desync {

std::vector<InjectConfig> read_inject(const toml::table& root, toml::table& out,
                                      const RunConfig& run, const std::string& deck) {
  std::vector<InjectConfig> list;
  const toml::node* n = root.get("inject");
  if (!n) return list;
  const auto* arr = n->as_array();
  if (!arr || !arr->is_array_of_tables())
    throw DeckError(fmt::format("{}: error: 'inject' must be an array of tables ([[inject]] per delay, in the deck: "
                                "--set addresses keys of tables and cannot add one)",
                                describe(n->source(), deck)));
  toml::array resolved;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    toml::table entry;
    TableReader r(arr->get(i)->as_table(), fmt::format("inject[{}]", i), entry, deck);
    InjectConfig c;
    const char* needs = "missing; every [[inject]] needs rank, iteration and duration (seconds) or duration_iterations";
    if (!r.has("rank")) r.fail("rank", needs);
    if (!r.has("iteration")) r.fail("iteration", needs);
    if (!r.has("duration") && !r.has("duration_iterations")) r.fail("duration", needs);
    if (r.has("duration") && r.has("duration_iterations"))
      r.fail("duration_iterations", "give either duration (seconds) or duration_iterations (multiples of the rank's "
                                    "iteration time), not both");
    c.rank = r.integer("rank", 0, 0, kIntegerKeyMax);
    c.iteration = r.integer("iteration", 0, std::numeric_limits<std::int64_t>::min() / 2, kIntegerKeyMax / 2);
    if (c.iteration < -run.warmup || c.iteration >= run.iterations)
      r.fail("iteration", fmt::format("workload \"{}\" runs {} warm-up and {} measured steps; allowed: {}..{}",
                                      run.workload, run.warmup, run.iterations, -run.warmup, run.iterations - 1));
    if (r.has("duration")) {
      c.duration = r.real("duration", 0.0, 1e-9, 3600.0);
    } else {
      // The rank's iteration time is measured over the warm-up: a delay in its units can only
      // act after it, in a run that has one.
      c.duration_iterations = r.real("duration_iterations", 0.0, 1e-6, 1e4);
      if (run.warmup < 1)
        r.fail("duration_iterations", "a delay in iterations needs the rank's iteration time, measured over the "
                                      "warm-up: set [run] warmup >= 1 (a few, so that the median is steady), or "
                                      "give duration in seconds");
      if (c.iteration < 0)
        r.fail("duration_iterations", fmt::format("iteration = {} is a warm-up iteration; a delay in iterations acts "
                                                  "in measured iterations only (0..{}), after the warm-up that "
                                                  "measures the iteration time", c.iteration, run.iterations - 1));
    }
    c.rank_pos = r.position("rank");
    c.iteration_pos = r.position("iteration");
    r.finish();
    list.push_back(c);
    resolved.push_back(std::move(entry));
  }
  out.insert_or_assign("inject", std::move(resolved));
  return list;
}

NoiseConfig read_noise(TableReader r, const RunConfig& run) {
  NoiseConfig c;
  c.kind = r.choice("kind", c.kind, noise_kind_names);
  c.mean = r.real("mean", c.mean, 0.0, 10.0);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 0, 0, kIntegerKeyMax));
  const bool drawn = c.kind == NoiseKind::uniform || c.kind == NoiseKind::exponential;
  const char* why_not_drawn = c.kind == NoiseKind::file ? "kind = \"file\" takes every delay from the file"
                                                        : "kind = \"none\" injects no noise";
  r.warn_where_unused("mean", drawn, c.mean, NoiseConfig{}.mean, why_not_drawn);
  r.warn_where_unused("seed", drawn, c.seed, NoiseConfig{}.seed, why_not_drawn);
  if (drawn && c.mean <= 0.0)
    r.fail("mean", "noise needs a mean > 0 seconds (or kind = \"none\")");
  // The noise file: read by rank 0 once the deck is parsed (commands/read_deck.cpp); only its
  // name here. Left out, no key in the resolved deck.
  if (r.has("file")) {
    c.file = r.string("file", "");
    c.file_pos = r.position("file");
    if (c.kind == NoiseKind::file && c.file.empty())
      r.fail("file", "give the path of the noise file (one line per iteration, one column per rank, seconds)");
  } else if (c.kind == NoiseKind::file) {
    r.fail("file", "kind = \"file\" needs the noise file: file = \"PATH\" (relative to the deck's directory; one "
                   "line per iteration, one column per rank, seconds)");
  }
  r.warn_where_unused("file", c.kind == NoiseKind::file, c.file, std::string{}, "only kind = \"file\" reads a file");
  // The ranks: each at most once (a rank that does not exist is found once P is known:
  // validate_shared_for_ranks). Left out, every rank, and the resolved deck has no such key.
  const bool ranks_given = r.has("ranks");
  if (ranks_given) {
    c.ranks = r.integer_list("ranks", {}, 0, kIntegerKeyMax);
    c.ranks_pos = r.position("ranks");
  }
  std::vector<std::int64_t> sorted = c.ranks;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    r.fail("ranks", fmt::format("rank {} is listed twice; give each noisy rank once", *twice));
  r.warn_where_unused("ranks", c.kind != NoiseKind::none, ranks_given ? 1 : 0, 0,
                      "kind = \"none\" injects no noise");
  // The iteration window: left out, every iteration (and no key in the resolved deck, which a
  // rerun with other [run] iterations would otherwise inherit as a window).
  const bool window_given = r.has("iterations");
  if (window_given) {
    const std::vector<std::int64_t> w = r.integer_list("iterations", {}, -run.warmup, run.iterations);
    if (w.size() != 2 || w[0] >= w[1])
      r.fail("iterations", fmt::format("give [first, end): two iteration numbers in the deck's numbering (warm-up "
                                       "-{}..-1, measured 0..{}), first < end <= {}, e.g. [0, {}]",
                                       run.warmup, run.iterations - 1, run.iterations, run.iterations));
    c.window_begin = w[0];
    c.window_end = w[1];
  }
  r.warn_where_unused("iterations", c.kind != NoiseKind::none, window_given ? 1 : 0, 0,
                      "kind = \"none\" injects no noise");
  r.finish();
  return c;
}

}  // namespace desync
