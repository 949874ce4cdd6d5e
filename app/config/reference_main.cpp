// SPDX-License-Identifier: MIT
// sotto-config-reference: writes the generated settings reference to a file (the config-reference target) or stdout.
#include <cstdio>
#include <fstream>

#include "app/config/config.h"

int main(int argc, char** argv) {
  const std::string text = sotto::config::referenceMarkdown();
  if (argc == 1) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s [OUTPUT.md]\n", argv[0]);
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "sotto-config-reference: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
