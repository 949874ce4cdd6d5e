// SPDX-License-Identifier: MIT
// JSON string output for the CLI's --json modes: one escaping rule for every subcommand.
#pragma once

#include <string>
#include <string_view>

namespace sotto::app {

// Appends s as a JSON string literal: quotes, backslash and control characters escaped; UTF-8 passes through.
void appendJsonString(std::string& out, std::string_view s);
// The same, as a new string.
std::string jsonString(std::string_view s);

}  // namespace sotto::app
