#include "record/phase_styles.hpp"

namespace desync {

const char* phase_class_name(PhaseClass c) {
  switch (c) {
    case PhaseClass::work: return "work";
    case PhaseClass::communication: return "communication";
    case PhaseClass::wait: return "wait";
    case PhaseClass::sync: return "sync";
    case PhaseClass::delay: return "delay";
    case PhaseClass::total: return "total";
  }
  return "?";
}

const std::vector<PhaseStyle>& shared_phase_styles() {
  // The colours of the timeline pictures since the first tools (tools/desync/timeline_plot.py):
  // communication grey, waiting red, synchronization orange, injected delay blue.
  static const std::vector<PhaseStyle> list{
      {"pack", PhaseClass::communication, "#d4d4d4", "pack (send buffer)"},
      {"post", PhaseClass::communication, "#bdbdbd", "post (Isend/Irecv)"},
      {"wait", PhaseClass::wait, "#e0201b", "wait (Waitall)"},
      {"unpack", PhaseClass::communication, "#d4d4d4", "unpack (halo)"},
      {"reply", PhaseClass::communication, "#bdbdbd", "reply"},
      {"delay", PhaseClass::delay, "#1f5fd6", "injected delay"},
      {"sync", PhaseClass::sync, "#f5a623", "sync (barrier/allreduce)"},
      {"barrier", PhaseClass::sync, "#f5a623", "barrier"},
      {"exec", PhaseClass::total, "#a6dba0", "exec"},
      {"comm", PhaseClass::total, "#bdbdbd", "communication"},
      {"iteration", PhaseClass::total, "#ffffff", "iteration"},
  };
  return list;
}

std::vector<PhaseStyle> resolve_phase_styles(const std::vector<std::string>& names, const std::vector<PhaseStyle>& own,
                                             const std::string& work_phase) {
  std::vector<PhaseStyle> out;
  for (const auto& n : names) {
    const PhaseStyle* found = nullptr;
    for (const auto& s : own)
      if (s.name == n) found = found ? found : &s;
    for (const auto& s : shared_phase_styles())
      if (!found && s.name == n) found = &s;
    if (found)
      out.push_back(*found);
    else
      out.push_back({n, n == work_phase ? PhaseClass::work : PhaseClass::communication, "#a0a0a0", n});
  }
  return out;
}

}  // namespace desync
