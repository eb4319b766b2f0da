#pragma once
// What each phase of a timeline is, for the file's /phases group (docs/output.md) and the tools:
// its class (work, communication, wait, sync, delay, or a total of others) and its colour in
// timeline pictures. The phases every workload shares are described here once; a workload module
// describes its own (workload/workload_module.hpp), so a new workload needs no Python change.
#include <string>
#include <vector>

namespace desync {

enum class PhaseClass { work, communication, wait, sync, delay, total };

struct PhaseStyle {
  std::string name;
  PhaseClass cls = PhaseClass::work;
  std::string colour;  // "#rrggbb", the bar's face colour
  std::string label;   // legend label
};

const char* phase_class_name(PhaseClass c);

// A phase that sums others, e.g. exec = local + remote (metrics/phase_stats.hpp).
struct CompositePhase {
  std::string name;
  std::vector<std::string> parts;
};

// The shared phases: pack, post, wait, unpack, reply, delay, sync, barrier, exec, comm, iteration.
const std::vector<PhaseStyle>& shared_phase_styles();

// The style of each of `names`: the workload's own first, then the shared ones; a phase neither
// describes gets class "work" if `work_phase` names it, else "communication", in grey.
std::vector<PhaseStyle> resolve_phase_styles(const std::vector<std::string>& names, const std::vector<PhaseStyle>& own,
                                             const std::string& work_phase);

}  // namespace desync
