// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes into sotto::config::loadString (and, for inputs starting "--set\n", into
// applyOverrides); aborts when an answer is inconsistent (see config_invariants.h), the sanitizers do the rest.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/config/config.h"
#include "config_invariants.h"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "config_fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

// A command line carries a handful of --set options; hundreds would only spend the run on suggestion searches.
constexpr std::size_t kMaxOverrides = 32;

void fuzzOverrides(std::string_view input) {
  std::vector<std::string> assignments;
  std::size_t start = 0;
  while (start < input.size() && assignments.size() < kMaxOverrides) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    assignments.emplace_back(input.substr(start, end - start));
    start = end + 1;
  }
  const sotto::config::LoadResult r = sotto::config::applyOverrides(sotto::config::defaults(), assignments);
  if (r.config.has_value() == !r.problems.empty()) fail("overrides: exactly one of config and problems");
  for (const sotto::config::Problem& p : r.problems) {
    if (p.file != "--set" || p.line != 0) fail("overrides: problem not from --set: " + p.format());
    if (p.format().find_first_of("\n\r") != std::string::npos) fail("overrides: problem spans lines");
  }
  if (r.config) {
    const sotto::config::LoadResult again = sotto::config::loadString(sotto::config::toXml(*r.config), "x.xml");
    if (!again.config || !(*again.config == *r.config)) fail("overrides: result does not round-trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz.xml";
  const sotto::config::LoadResult r = sotto::config::loadString(input, name);
  if (const std::string broken = sotto::config::test::checkLoadInvariants(input, name, r); !broken.empty()) {
    fail(broken);
  }
  constexpr std::string_view kOverrides = "--set\n";
  if (input.starts_with(kOverrides)) fuzzOverrides(input.substr(kOverrides.size()));
  return 0;
}
