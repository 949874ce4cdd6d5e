// SPDX-License-Identifier: MIT
// Helpers shared by the test_config sources: source-tree paths, file reading, problem lines.
#pragma once

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "app/config/config.h"

namespace sotto::config::test {

inline std::string sourcePath(const std::string& relative) { return std::string(SOTTO_SOURCE_DIR) + "/" + relative; }

// The whole file, or "" when it cannot be read (the callers assert on content, so that fails loudly).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::vector<std::string> formatted(const LoadResult& result) {
  std::vector<std::string> lines;
  for (const Problem& p : result.problems) lines.push_back(p.format());
  return lines;
}

// A one-off document: the root element around body.
inline std::string sottoXml(const std::string& body) { return "<sotto version=\"1\">\n" + body + "\n</sotto>\n"; }

}  // namespace sotto::config::test
