#include "loop/flush_hook.hpp"

namespace desync {
namespace {
FlushHook* g_hook = nullptr;
}  // namespace

void install_flush_hook(FlushHook* hook) { g_hook = hook; }
FlushHook* installed_flush_hook() { return g_hook; }

}  // namespace desync
