#pragma once
// What the deck loader must know of a workload: its tables, its own table's reader and the deck
// rules that depend on it. Every workload module fills one in (workload/workload_module.hpp,
// WorkloadModule::deck); parse_deck() loops over the list it is given, so this layer names no
// workload. Fields left at their defaults mean "nothing special".
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace desync {

class TableReader;

struct WorkloadDeck {
  std::string name;                 // [run] workload
  // The tables its decks may hold, its own (named `name`) among them; any other is an error.
  std::vector<std::string> tables;
  // Reads its own table into cfg.params (a struct of the module's own). Null: no own table.
  void (*read_table)(TableReader& r, Config& cfg) = nullptr;

  bool needs_matrix = false;        // [matrix] is required (it must be in `tables`)
  bool sell_format = false;         // [matrix] format = "sell" serves its kernels

  // [comm]. Collective workloads use collectives over sub-communicators: send, progress and
  // fragment_bytes do not apply, communicators is their N_DUP.
  bool collective = false;
  // Its messages live in the default memory space (device memory in a GPU build), so
  // gpu_aware_mpi applies.
  bool device_buffers = false;
  // Keys [comm] once held that now live in its own table: a deck that still sets them there is
  // told where they went.
  std::vector<std::string> former_comm_keys;
  SendMode default_send = SendMode::nonblocking;
  SyncMode default_sync = SyncMode::none;
  // Its own table asks for a barrier after each step (the older spelling of sync = "barrier").
  bool (*asks_barrier)(const Config& cfg) = nullptr;
  // Its own table runs the loop a second time with the other sync (compare_barrier): a barrier
  // run exists even where [comm] sync = "none", and [comm] sync_every spaces its barriers.
  bool (*pairs_barrier)(const Config& cfg) = nullptr;
  // Its timeline is cells of repetitions (a message size, a collective and size), each from its
  // own set-up: [comm] sync_every, counted over the whole run, would space the syncs differently
  // in every cell, so it is refused.
  bool cells_of_repetitions = false;
  // What the rank computes while its messages are in flight (the work progress = "test" cuts
  // into chunks), or null where the deck's scheme computes nothing then; no_overlap says why
  // (not asked of a collective workload: its [comm] progress is refused as not applying).
  const char* (*overlapped_work)(const Config& cfg) = nullptr;
  std::string (*no_overlap)(const Config& cfg) = nullptr;

  // steps(cfg): the timeline iterations (warm-up + measured) when they follow from its own table
  // rather than [run] iterations (e.g. a filter's degree steps). Then [run] iterations is refused and the
  // warm-up defaults to min(10, steps - 1). Null: [run] warmup + iterations. Either way, after
  // loading cfg.run.iterations holds the measured steps: [[inject]], [record] window, progress
  // and the stop agreement are validated against it.
  std::int64_t (*steps)(const Config& cfg) = nullptr;
  std::string steps_name = "steps";  // what its steps are, for messages ("degree steps")
  std::string steps_hint;            // how its table sets them, for messages

  // Rules across tables (throws DeckError), run once the deck is read.
  void (*validate_deck)(const Config& cfg) = nullptr;
  // Rank-count rules beyond the deck itself (throws DeckError).
  void (*validate_ranks)(const Config& cfg, int nranks) = nullptr;
};

}  // namespace desync
