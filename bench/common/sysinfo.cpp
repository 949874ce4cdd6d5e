// SPDX-License-Identifier: MIT
// Collects the system description for benchmark headers and prints baseline ratios after a run.
#include "bench/common/sysinfo.h"

#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#ifndef SOTTO_BUILD_TYPE
#define SOTTO_BUILD_TYPE "unknown"
#endif

namespace sotto::bench {

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// First value of "key : value" in /proc/cpuinfo (or "" when absent).
std::string cpuinfoField(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon != std::string::npos && trim(line.substr(0, colon)) == key) return trim(line.substr(colon + 1));
  }
  return {};
}

// Arm does not put a model name in /proc/cpuinfo; the implementer and part numbers identify the core.
std::string armCoreName(const std::string& implementer, const std::string& part) {
  static const std::map<std::string, std::string> kArmParts = {
      {"0xd03", "Cortex-A53"}, {"0xd04", "Cortex-A35"},   {"0xd05", "Cortex-A55"}, {"0xd07", "Cortex-A57"},
      {"0xd08", "Cortex-A72"}, {"0xd09", "Cortex-A73"},   {"0xd0a", "Cortex-A75"}, {"0xd0b", "Cortex-A76"},
      {"0xd0c", "Neoverse-N1"}, {"0xd0d", "Cortex-A77"},  {"0xd41", "Cortex-A78"}, {"0xd40", "Neoverse-V1"},
      {"0xd46", "Cortex-A510"}, {"0xd47", "Cortex-A710"}, {"0xd49", "Neoverse-N2"}, {"0xd4f", "Neoverse-V2"},
  };
  if (implementer == "0x41") {
    const auto it = kArmParts.find(part);
    if (it != kArmParts.end()) return "Arm " + it->second;
  }
  return "implementer " + implementer + " part " + part;
}

std::string cpuModel() {
  std::string model = cpuinfoField("model name");
#if defined(__aarch64__)
  // An aarch64 build reading an x86 model name runs under user-mode emulation (qemu): say so, since the
  // figures then measure the emulator.
  if (!model.empty() && cpuinfoField("CPU implementer").empty()) return model + " (emulated aarch64)";
#endif
  if (!model.empty()) return model;
  const std::string implementer = cpuinfoField("CPU implementer");
  if (!implementer.empty()) model = armCoreName(implementer, cpuinfoField("CPU part"));
  // Boards name themselves in the device tree (e.g. "Raspberry Pi 4 Model B Rev 1.4").
  std::ifstream dt("/sys/firmware/devicetree/base/model");
  std::string board;
  if (std::getline(dt, board, '\0') && !board.empty()) model += (model.empty() ? "" : " on ") + board;
  return model.empty() ? "unknown" : model;
}

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

void feature(std::string& out, const char* name, bool present) {
  if (!out.empty()) out += ' ';
  if (!present) out += '-';
  out += name;
}

std::string cpuFeatures() {
  std::string out;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  feature(out, "sse4.2", __builtin_cpu_supports("sse4.2"));
  feature(out, "avx2", __builtin_cpu_supports("avx2"));
  feature(out, "fma", __builtin_cpu_supports("fma"));
  feature(out, "avx512f", __builtin_cpu_supports("avx512f"));
  feature(out, "avx512vnni", __builtin_cpu_supports("avx512vnni"));
  feature(out, "avx512bf16", __builtin_cpu_supports("avx512bf16"));
#elif defined(__aarch64__)
  const unsigned long hwcap = ::getauxval(AT_HWCAP);
  feature(out, "asimd", (hwcap & HWCAP_ASIMD) != 0);
  feature(out, "asimddp", (hwcap & HWCAP_ASIMDDP) != 0);
#ifdef HWCAP_SVE
  feature(out, "sve", (hwcap & HWCAP_SVE) != 0);
#endif
#ifdef HWCAP2_I8MM
  feature(out, "i8mm", (::getauxval(AT_HWCAP2) & HWCAP2_I8MM) != 0);
#endif
#else
  out = "unknown architecture";
#endif
  return out;
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
  info.cpuModel = cpuModel();
  info.onlineCpus = std::thread::hardware_concurrency();
  info.usableCpus = usableCpus();
  info.kernel = kernel();
  info.compiler = compiler();
  info.buildType = buildType();
  info.cpuFeatures = cpuFeatures();
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
