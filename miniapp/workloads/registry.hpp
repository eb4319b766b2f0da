#pragma once
// The workload registry: the list of workload modules (workload/workload_module.hpp) that
// `desync run`, `check`, `plan` and `simulate` know. The deck loader, the driver, the output
// writer and the simulator loop over it; none of them names a workload.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/memory.hpp"
#include "workload/workload_module.hpp"

namespace desync {

// The built-in modules in their fixed order, then any registered with register_workload().
const std::vector<WorkloadModule>& workload_registry();
// Adds a module before the first deck is read (a test's example workload, tests/example_workload).
// A name already in the registry is a logic error.
void register_workload(WorkloadModule m);
// The module of [run] workload (a name load_deck accepted).
const WorkloadModule& workload_module(const std::string& name);

// Parses and validates a deck for the registry's workloads (config/config.hpp, parse_deck).
Config load_deck(const std::string& deck_text, const std::string& deck_path, const std::vector<std::string>& overrides);

// Checks what depends on the number of ranks: the shared tables', then the workload's rules.
void validate_for_ranks(const Config& cfg, int nranks);
// The workload's node-dependent rules, collective over comm; preflight calls it.
void validate_workload_layout(const Config& cfg, MPI_Comm comm);
// Timeline rows (iterations) a complete run on `ranks` ranks records: the output file's
// iterations_planned; the first planned_warmup of them are warm-up rows.
std::int64_t planned_iterations(const Config& cfg, int ranks);
std::int64_t planned_warmup(const Config& cfg);
// [record] window against the rows a run on `ranks` ranks records: a window holding none of
// them is a DeckError (a window reaching past the end is cut when written, and said then).
// ranks <= 0: the rank count is not known, and a workload whose rows depend on it is not checked.
void check_record_window(const Config& cfg, int ranks);
// Peak memory of `rank` of `size` for the deck's workload.
MemoryEstimate estimate_memory(const Config& cfg, int rank, int size);
// The style of each phase in `names` for the deck's workload (its own, then the shared ones).
std::vector<PhaseStyle> phase_styles(const Config& cfg, const std::vector<std::string>& names, const std::string& work_phase);

}  // namespace desync
