// SPDX-License-Identifier: MIT
// System description printed with every benchmark run, and a main() that compares results with baselines.
#pragma once

#include <string>
#include <vector>

namespace sotto::bench {

struct SystemInfo {
  std::string cpuModel;     // /proc/cpuinfo "model name", or the Arm implementer/part, or the device-tree model
  unsigned onlineCpus = 0;  // logical CPUs online
  unsigned usableCpus = 0;  // logical CPUs in this process's affinity mask
  std::string kernel;       // uname: sysname release machine
  std::string compiler;
  std::string buildType;    // CMAKE_BUILD_TYPE, plus assertions and sanitizers
  std::string cpuFeatures;  // the SIMD features our kernels select on, as "avx2 fma -avx512f ..." (- = absent)
};

// Any thread; reads /proc and /sys, so not for a real-time path.
SystemInfo collectSystemInfo();

// Registers every field with benchmark::AddCustomContext so it is printed in the run's header (and written to
// JSON output). Main thread, after benchmark::Initialize and before RunSpecifiedBenchmarks.
void addSystemInfoContext(const SystemInfo& info);

// A candidate benchmark and the baseline measured in the same run; both must call SetItemsProcessed.
// Names are benchmark function names as registered (e.g. "BM_SpscRing_Transfer"); runs are paired by
// their arguments and thread count.
struct Comparison {
  std::string label;
  std::string candidate;
  std::string baseline;
};

// The whole main(): initializes Google Benchmark, prints the system info, runs the selected benchmarks on the
// console, then prints "candidate / baseline" items-per-second ratios for each comparison whose both sides ran.
// Main thread; blocks for the whole run. Returns the process exit code. (With --benchmark_format other than
// console the display stays console; use --benchmark_out=FILE --benchmark_out_format=json for JSON.)
int runBenchmarksMain(int argc, char** argv, const std::vector<Comparison>& comparisons);

}  // namespace sotto::bench
