// SPDX-License-Identifier: MIT
// What must hold for any input to the config loader: shared by the fuzz target and test_config's corpus replay.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "app/config/config.h"

namespace sotto::config::test {

// Whoever reads these messages reads them one per line, in a terminal or the journal.
inline constexpr std::size_t kMaxProblemLength = 1000;

// "" when result is a consistent answer for input, otherwise what is wrong. name is the nameForMessages given.
inline std::string checkLoadInvariants(std::string_view input, const std::string& name, const LoadResult& result) {
  if (result.config.has_value() == !result.problems.empty()) {
    return "exactly one of config and problems must be present";
  }
  const int lastLine = 1 + static_cast<int>(std::count(input.begin(), input.end(), '\n'));
  for (const Problem& p : result.problems) {
    const std::string line = p.format();
    if (p.file != name) return "problem names another file: " + line;
    if (p.line < 0 || p.line > lastLine) return "line outside the input: " + line;
    if (p.message.empty()) return "empty message: " + line;
    if (line.find_first_of("\n\r") != std::string::npos) return "problem spans lines: " + line;
    if (line.size() > name.size() + kMaxProblemLength) return "problem too long: " + line;
  }
  if (result.config) {
    const std::string xml = toXml(*result.config);
    const LoadResult again = loadString(xml, "round-trip.xml");
    if (!again.config) return "toXml output does not load: " + again.problems.front().format() + "\n" + xml;
    if (!(*again.config == *result.config)) return "toXml does not round-trip:\n" + xml;
  }
  return {};
}

}  // namespace sotto::config::test
