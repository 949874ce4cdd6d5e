// SPDX-License-Identifier: MIT
// CPU architecture and SIMD features detected at run time (kernel selection, --version, benchmark headers).
#pragma once

#include <string>

namespace sotto::hal {

struct CpuFeatures {
  // x86-64
  bool sse42 = false, avx = false, avx2 = false, fma = false, f16c = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512vnni = false, avx512bf16 = false, avxvnni = false;
  // aarch64
  bool neon = false, dotprod = false, i8mm = false, fp16 = false, sve = false;
};

// Any thread; cheap after the first call (cached).
const CpuFeatures& cpuFeatures();
// "x86_64" or "aarch64": the architecture this binary was built for.
const char* targetArch();
// Space-separated names of the detected features, e.g. "sse4.2 avx2 fma f16c".
std::string cpuFeatureString();
// Model name from /proc/cpuinfo ("unknown" when absent, as under qemu-user for some targets).
std::string cpuModelName();

}  // namespace sotto::hal
