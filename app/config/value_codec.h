// SPDX-License-Identifier: MIT
// Parsing and spelling of setting values, one codec per ValueType, shared by the file, overrides and defaults().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config/settings.h"

namespace sotto::config::detail {

// Parses text as the value of s and stores it in config. On failure returns the message (without file, line or
// setting: the caller adds those) and leaves config untouched.
std::optional<std::string> assign(const Setting& s, std::string_view text, Config& config);

// The value of s in config, spelled as in the file: assign(s, render(s, c), c) leaves a valid c unchanged.
std::string render(const Setting& s, const Config& config);

// Typed reads for the cross-setting rules.
uint32_t unsignedValue(const Setting& s, const Config& config);
const std::string& stringValue(const Setting& s, const Config& config);

// The codecs, exposed for the tests. Each returns the parsed value or the message.
struct ParsedCpuList {
  std::vector<int> cpus;  // ascending
  std::string error;      // empty on success
};
ParsedCpuList parseCpuList(std::string_view text);
std::string formatCpuList(const std::vector<int>& cpus);     // ascending input -> "0,2-3"
std::optional<std::string> checkUrl(std::string_view text);  // nullopt when valid (empty is valid)

}  // namespace sotto::config::detail
