// SPDX-License-Identifier: MIT
// Collects the system description for benchmark headers and prints baseline ratios after a run.
#include "bench/common/sysinfo.h"

#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <thread>

#include "sotto/hal/cpu.h"

#ifndef SOTTO_BUILD_TYPE
#define SOTTO_BUILD_TYPE "unknown"
#endif

namespace sotto::bench {

namespace {

std::string kernel() {
  utsname u{};
  if (::uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

std::string buildType() {
  std::string s = SOTTO_BUILD_TYPE;
#ifdef NDEBUG
  s += ", assertions off";
#else
  s += ", assertions on";
#endif
#if defined(__SANITIZE_ADDRESS__)
  s += ", ASan";
#endif
#if defined(__SANITIZE_THREAD__)
  s += ", TSan";
#endif
#if defined(__OPTIMIZE__)
  s += ", optimized";
#else
  s += ", NOT optimized (figures are not representative)";
#endif
  return s;
}

unsigned usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return static_cast<unsigned>(CPU_COUNT(&set));
}

// The console output plus the items-per-second of every run, for the ratios printed at the end.
class ComparingReporter : public benchmark::ConsoleReporter {
 public:
  explicit ComparingReporter(const std::vector<Comparison>& comparisons) : comparisons_(comparisons) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
      const auto it = run.counters.find("items_per_second");
      if (it == run.counters.end()) continue;
      const std::string& args = run.run_name.args;
      const std::string& threads = run.run_name.threads;
      const std::string variant = args.empty() || threads.empty() ? args + threads : args + "/" + threads;
      rates_[run.run_name.function_name][variant] = it->second.value;
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::ostream& out = GetOutputStream();
    bool header = false;
    for (const Comparison& c : comparisons_) {
      const auto cand = rates_.find(c.candidate);
      const auto base = rates_.find(c.baseline);
      if (cand == rates_.end() || base == rates_.end()) continue;
      for (const auto& [variant, rate] : cand->second) {
        const auto b = base->second.find(variant);
        if (b == base->second.end() || b->second <= 0) continue;
        if (!header) {
          out << "\nBaseline comparison (items/s of candidate / items/s of baseline, same run):\n";
          header = true;
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-46s %-12s %8.2fx   (%s vs %s)\n", c.label.c_str(),
                      variant.c_str(), rate / b->second, c.candidate.c_str(),
                      c.baseline.c_str());
        out << line;
      }
    }
  }

 private:
  const std::vector<Comparison>& comparisons_;
  std::map<std::string, std::map<std::string, double>> rates_;
};

}  // namespace

SystemInfo collectSystemInfo() {
  SystemInfo info;
  info.cpuModel = sotto::hal::cpuModelName();
  info.onlineCpus = std::thread::hardware_concurrency();
  info.usableCpus = usableCpus();
  info.kernel = kernel();
  info.compiler = compiler();
  info.buildType = buildType();
  info.cpuFeatures = sotto::hal::cpuFeatureString();
  return info;
}

void addSystemInfoContext(const SystemInfo& info) {
  benchmark::AddCustomContext("sotto_cpu", info.cpuModel);
  benchmark::AddCustomContext("sotto_cpus", std::to_string(info.onlineCpus) + " online, " +
                                                std::to_string(info.usableCpus) + " usable");
  benchmark::AddCustomContext("sotto_kernel", info.kernel);
  benchmark::AddCustomContext("sotto_compiler", info.compiler);
  benchmark::AddCustomContext("sotto_build", info.buildType);
  benchmark::AddCustomContext("sotto_cpu_features", info.cpuFeatures);
}

int runBenchmarksMain(int argc, char** argv, const std::vector<Comparison>& comparisons) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  addSystemInfoContext(collectSystemInfo());
  ComparingReporter reporter(comparisons);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace sotto::bench
