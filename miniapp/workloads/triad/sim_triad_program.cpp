// The MPI-augmented triad on the modelled cluster (papers.md A.3.1, B.3.1): each iteration one
// sweep, then the neighbour exchange of the real run (workloads/triad/neighbour_partners.hpp).
#include "workloads/triad/sim_triad_program.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "record/iteration_events.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "workloads/triad/triad.hpp"

namespace desync::sim {

Program triad_program(const Config& cfg, const Platform& platform, int ranks) {
  const TriadConfig& t = cfg.params.get<TriadConfig>();
  Program p;
  p.workload = "triad";
  p.event_names = iteration_event_names();
  p.iterations = cfg.run.warmup + cfg.run.iterations;
  p.warmup = cfg.run.warmup;
  p.delay_begin = ev::delay_begin;
  p.delay_end = ev::delay_end;
  p.sync_end = ev::sync_end;
  // The divide kernel is core-bound (its bytes are negligible next to the divides); the stream
  // and Schoenauer kernels are memory-bound: bytes through the domain, b(n) shared.
  const bool core_bound = t.kernel == TriadKernel::divide;
  if (core_bound && !(platform.divide_time > 0.0))
    throw DeckError(platform.path + ": error: [core] divide_time is 0 (or missing), but [triad] kernel = \"divide\" in " +
                    cfg.deck_path + " needs it: the seconds of one dependent divide on one core (tools/calibrate_platform.py measures it)");
  p.steps = compute_then_exchange(cfg, {{core_bound ? Op::core : Op::memory, 0}});
  if (core_bound) p.core_keys = {"divide_time"};
  const double bpe = triad_bytes_per_element(t.kernel, t.write_allocate);
  p.model = core_bound ? fmt::format("triad divide: core-bound, elements x {} divides x divide_time = {} s per divide", t.divides,
                                     platform.divide_time)
                       : fmt::format("triad {}: memory-bound, elements x {} B (STREAM counting) through the domain's memory",
                                     enum_name(triad_kernel_names, t.kernel), triad_bytes_per_element(t.kernel, false));
  p.datasets.push_back({"comm", "offsets", "1", {t.offsets.size()}, std::vector<double>(t.offsets.begin(), t.offsets.end()), false, true});

  // Every rank's messages, from the partner rule of the real run.
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    const double n = static_cast<double>(triad_local_size(t, r, ranks));
    // Platform bandwidths count bytes as STREAM does (no write-allocate; calibrate_platform.py
    // measures them so), hence the streamed amount does too, whatever the deck's byte model says.
    w.amount = {core_bound ? n * static_cast<double>(t.divides) * platform.divide_time
                           : n * triad_bytes_per_element(t.kernel, false)};
    w.bytes_per_iteration = n * bpe;
    w.flops_per_iteration = n * (core_bound ? static_cast<double>(t.divides) : 2.0);
    const Partners pt = neighbour_partners(r, ranks, t.offsets, t.boundary);
    Exchange x;
    for (std::size_t k = 0; k < pt.send_to.size(); ++k) {
      if (pt.recv_from[k] >= 0) x.recv.push_back({pt.recv_from[k], t.message_bytes});
      if (pt.send_to[k] >= 0) x.send.push_back({pt.send_to[k], t.message_bytes});
      w.partners.send_rank.push_back(pt.send_to[k]);
      w.partners.recv_rank.push_back(pt.recv_from[k]);
      w.partners.send_bytes.push_back(pt.send_to[k] >= 0 ? t.message_bytes : 0);
      w.partners.recv_bytes.push_back(pt.recv_from[k] >= 0 ? t.message_bytes : 0);
    }
    w.exchange = {x};
  }
  return p;
}

}  // namespace desync::sim
