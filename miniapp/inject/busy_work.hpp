#pragma once
// Core-bound busy work for injected delays: a chain of dependent divisions on one core until the
// requested time has passed. It does not touch memory, so a delay does not change the memory
// bandwidth other ranks see (the papers' "extra block of divides"), and unlike sleep the core
// stays busy.
namespace desync {

// Returns the time actually spent (s).
double busy_divide(double seconds);

}  // namespace desync
