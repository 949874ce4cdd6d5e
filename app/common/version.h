// SPDX-License-Identifier: MIT
// The --version text shared by sottod, sotto and sotto-* tools.
#pragma once

#include <string>

namespace sotto::app {

// "sottod 0.1.0 (Release, x86_64, static)\ncpu: ...\nfeatures: ..." — any thread.
std::string versionText(const char* program);

}  // namespace sotto::app
