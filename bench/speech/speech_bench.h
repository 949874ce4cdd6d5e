// SPDX-License-Identifier: MIT
// Shared by the speech benchmark modes: manifests, 16 kHz WAV reading, the listener configuration built from the
// config file exactly as `sotto listen` builds it, CPU clocks, load and system info, percentiles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/speech/listener.h"
#include "sotto/hal/result.h"

namespace sotto::bench {

// One row of a TSV manifest written by bench/speech/gen_sets.py (lines starting with '#' are comments).
using Row = std::vector<std::string>;
Result<std::vector<Row>> readManifest(const std::string& path, size_t columns);

// A 16 kHz mono 16-bit WAV (what gen_sets.py writes); anything else is an error naming the file.
Result<std::vector<int16_t>> readWav16kMono(const std::string& path);

// Options every mode takes: --config FILE, --set S=V (repeatable), --catalogue PATH.
struct SetupOptions {
  std::string configPath;  // default: the source tree's config/sotto.xml
  std::vector<std::string> overrides;
  std::string catalogue;  // default: the source tree's config/intents.xml
  // Consumes argv[i] (and its value) when it is one of the options above; returns false otherwise.
  bool parse(int argc, char** argv, int& i);
};

// The listener configuration of app/sotto/cmd_listen.cpp (same settings, same mapping), plus the wake phrase.
struct Setup {
  speech::ListenerConfig listener;
  std::string describe;  // one line: config file, overrides, phrase, threshold, grammar
};
Result<Setup> makeSetup(const SetupOptions& options);

// This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID), and the monotonic wall clock in seconds.
double threadCpuSeconds();
double wallSeconds();

// Prints the system info (bench/common/sysinfo) and the current load average and CPU count, so figures from a
// shared machine can be read in context.
void printSystemHeader(const char* what);
std::string loadAverage();

// Nearest-rank percentile of `v` (p in 0..100); 0 for an empty vector.
double percentile(std::vector<double> v, double p);

}  // namespace sotto::bench
