// SPDX-License-Identifier: MIT
// sotto-bench e2e: starts the end-to-end latency harness (bench/e2e/e2e_bench.py), which replays spoken requests
// through the real sottod; the harness is Python (it drives processes, sox and flite), this is its entry point.
#pragma once

#include <string>
#include <vector>

namespace sotto::bench {

// The harness's command line: the interpreter, the script, --bin <sotto-bench's directory> (so that sottod and
// sotto beside sotto-bench are the ones measured), then the user's arguments (a later --bin wins). `script` is
// the first of SOTTO_E2E_SCRIPT (environment) and the source tree's bench/e2e/e2e_bench.py that exists; empty
// when neither does. Any thread.
std::vector<std::string> e2eCommand(const std::string& selfDir, const std::vector<std::string>& args);

// Replaces the process with the harness (execv); returns only on failure, with exit status 1 and one line on
// stderr. Main thread only.
int runE2e(int argc, char** argv);

}  // namespace sotto::bench
