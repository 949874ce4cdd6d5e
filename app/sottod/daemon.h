// SPDX-License-Identifier: MIT
// sottod's lifetime: prepare directories and memory, run the pipeline, talk to systemd, stop on SIGTERM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/config/config.h"
#include "sotto/hal/result.h"

namespace sotto::app {

// A scheduled fault for tests: "stall:STAGE:MS" (a stage stops responding), "enospc:MS" (every persistent-state
// write fails with ENOSPC, as on a full disk; 0: from the start, before the brain writes anything).
inline constexpr const char* kDiskFullFault = "*enospc";  // Fault::stage of "enospc:MS" (no stage has a '*')
struct Fault {
  std::string stage;
  uint32_t afterMs = 0;
};
Result<Fault> parseFault(const std::string& text);

// Main thread only; blocks until SIGTERM/SIGINT. Returns the process exit status (0 clean stop, 1 start-up failure,
// 2 invalid fault specification).
int runDaemon(const config::Config& cfg, const std::string& configPath, const std::vector<std::string>& faults);

}  // namespace sotto::app
