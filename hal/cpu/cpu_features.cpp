// SPDX-License-Identifier: MIT
// Run-time CPU feature detection: cpuid builtins on x86-64, the kernel's hwcaps on aarch64.
#include "sotto/hal/cpu.h"

#include <fstream>
#include <map>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace sotto::hal {
namespace {

CpuFeatures detect() {
  CpuFeatures f;
#if defined(__x86_64__)
  __builtin_cpu_init();
  f.sse42 = __builtin_cpu_supports("sse4.2");
  f.avx = __builtin_cpu_supports("avx");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512vnni = __builtin_cpu_supports("avx512vnni");
  f.avx512bf16 = __builtin_cpu_supports("avx512bf16");
  // f16c and AVX-VNNI have no builtin name in GCC 12 / clang 14: read CPUID.1:ECX[29] and CPUID.(7,1):EAX[4].
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) f.f16c = (c >> 29) & 1u;
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) f.avxvnni = f.avx2 && ((a >> 4) & 1u);
#elif defined(__aarch64__)
  unsigned long hw = getauxval(AT_HWCAP);
  unsigned long hw2 = getauxval(AT_HWCAP2);
  f.neon = hw & HWCAP_ASIMD;
  f.dotprod = hw & HWCAP_ASIMDDP;
  f.fp16 = hw & HWCAP_ASIMDHP;
  f.sve = hw & HWCAP_SVE;
#ifdef HWCAP2_I8MM
  f.i8mm = hw2 & HWCAP2_I8MM;
#else
  (void)hw2;
#endif
#endif
  return f;
}

}  // namespace

const CpuFeatures& cpuFeatures() {
  static const CpuFeatures features = detect();
  return features;
}

const char* targetArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

std::string cpuFeatureString() {
  const CpuFeatures& f = cpuFeatures();
  std::string s;
  auto add = [&s](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(f.sse42, "sse4.2"); add(f.avx, "avx"); add(f.avx2, "avx2"); add(f.fma, "fma"); add(f.f16c, "f16c");
  add(f.avx512f, "avx512f"); add(f.avx512bw, "avx512bw"); add(f.avx512vl, "avx512vl");
  add(f.avx512vnni, "avx512vnni"); add(f.avx512bf16, "avx512bf16"); add(f.avxvnni, "avxvnni");
  add(f.neon, "neon"); add(f.dotprod, "dotprod"); add(f.i8mm, "i8mm"); add(f.fp16, "fp16"); add(f.sve, "sve");
  return s.empty() ? std::string("none") : s;
}

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// First value of "key : value" in /proc/cpuinfo ("" when absent).
std::string cpuinfoField(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon != std::string::npos && trim(line.substr(0, colon)) == key) return trim(line.substr(colon + 1));
  }
  return {};
}

// Arm kernels give implementer and part numbers, not a model name.
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

}  // namespace

std::string cpuModelName() {
  std::string model = cpuinfoField("model name");
#if defined(__aarch64__)
  // An aarch64 binary reading an x86 model name runs under user-mode emulation (qemu): say so, since
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

}  // namespace sotto::hal
