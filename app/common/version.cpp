// SPDX-License-Identifier: MIT
// Version text: build facts plus the CPU features detected on the machine running the binary.
#include "app/common/version.h"

#include "build_info.h"
#include "sotto/hal/cpu.h"

namespace sotto::app {

std::string versionText(const char* program) {
  std::string s = std::string(program) + " " SOTTO_VERSION "\n";
  s += "build: " SOTTO_BUILD_TYPE ", " SOTTO_LINKAGE ", " SOTTO_COMPILER;
  if (SOTTO_SANITIZERS[0] != '\0') s += ", sanitizers: " SOTTO_SANITIZERS;
  s += "\n";
  s += std::string("target: ") + hal::targetArch() + "\n";
  s += "cpu: " + hal::cpuModelName() + "\n";
  s += "cpu features: " + hal::cpuFeatureString() + "\n";
  return s;
}

}  // namespace sotto::app
