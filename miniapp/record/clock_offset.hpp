#pragma once
// A rank's clock against rank 0's, as comm/clock_sync.hpp estimates it and the output file
// records it (/topology).
namespace desync {

struct ClockOffset {
  double offset = 0.0;  // local clock minus rank 0's clock (s)
  double error = 0.0;   // half the best round trip (s)
};

}  // namespace desync
