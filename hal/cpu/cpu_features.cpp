// SPDX-License-Identifier: MIT
// Run-time CPU feature detection: cpuid builtins on x86-64, the kernel's hwcaps on aarch64.
#include "sotto/hal/cpu.h"

#include <fstream>

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
  f.avxvnni = __builtin_cpu_supports("avxvnni");
  // f16c has no builtin name in GCC 12: read CPUID.1:ECX bit 29.
  unsigned a = 1, b = 0, c = 0, d = 0;
  __asm__("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d) : "c"(0));
  f.f16c = (c >> 29) & 1u;
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

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  auto value = [](const std::string& l) {
    auto colon = l.find(':');
    if (colon == std::string::npos) return std::string();
    auto start = l.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : l.substr(start);
  };
#if defined(__aarch64__)
  // Arm kernels list implementer and part numbers, not a model name. (Under qemu-user the file is the
  // host's, which has neither: then "unknown" rather than the host's x86 name.)
  std::string implementer, part;
  while (std::getline(in, line)) {
    if (implementer.empty() && line.rfind("CPU implementer", 0) == 0) implementer = value(line);
    if (part.empty() && line.rfind("CPU part", 0) == 0) part = value(line);
  }
  if (implementer.empty()) return "unknown";
  return "implementer " + implementer + " part " + part;
#else
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      std::string v = value(line);
      if (!v.empty()) return v;
    }
  }
  return "unknown";
#endif
}

}  // namespace sotto::hal
