// SPDX-License-Identifier: MIT
// Regression corpus: each tests/config/broken/NAME.xml must yield exactly the problem lines in NAME.expected.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "test_util.h"
#include "tests/fuzz/config_invariants.h"

namespace sotto::config {
namespace {

namespace fs = std::filesystem;
using test::formatted;

const fs::path kBrokenDir = fs::path(SOTTO_SOURCE_DIR) / "tests/config/broken";

std::vector<std::string> brokenCases() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(kBrokenDir, error)) {
    if (entry.path().extension() == ".xml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

class Broken : public ::testing::TestWithParam<std::string> {};

TEST_P(Broken, ReportsExactlyTheExpectedProblems) {
  const std::string name = GetParam();
  const fs::path expectedPath = kBrokenDir / (name + ".expected");
  ASSERT_TRUE(fs::exists(expectedPath)) << expectedPath << " is missing";
  const std::vector<std::string> expected = lines(test::readFile(expectedPath));
  ASSERT_FALSE(expected.empty()) << expectedPath << " is empty";

  // Messages name the file as given; the corpus uses the bare file name so that the expectations hold anywhere.
  const LoadResult r = loadString(test::readFile(kBrokenDir / (name + ".xml")), name + ".xml");
  EXPECT_FALSE(r.config) << "a broken file must not produce a Config";
  EXPECT_EQ(formatted(r), expected);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Broken, ::testing::ValuesIn(brokenCases()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

TEST(BrokenCorpus, HoldsTheRequiredCases) {
  const std::vector<std::string> cases = brokenCases();
  for (const char* required :
       {"bad_cpu_list",        "bad_enum",          "binary",          "blank",         "bom_garbage",
        "duplicate_attribute", "duplicate_element", "empty",           "garbage",       "http_not_loopback",
        "missing_root",        "missing_version",   "out_of_range",    "relative_path", "several_problems",
        "unclosed_tag",        "unknown_attribute", "unknown_element", "wrong_type",    "wrong_version"}) {
    EXPECT_NE(std::find(cases.begin(), cases.end(), required), cases.end()) << required;
  }
  for (const auto& entry : fs::directory_iterator(kBrokenDir)) {
    if (entry.path().extension() == ".expected") {
      EXPECT_TRUE(fs::exists(fs::path(entry.path()).replace_extension(".xml"))) << entry.path() << " has no .xml";
    }
  }
}

// The fuzz seeds and crash regressions also run here, in every build, not only under SOTTO_FUZZ.
TEST(FuzzCorpus, InvariantsHoldForEveryInput) {
  int inputs = 0;
  for (const fs::path& dir : {fs::path(SOTTO_SOURCE_DIR) / "tests/fuzz/corpus/config", kBrokenDir}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string input = test::readFile(entry.path());
      const LoadResult r = loadString(input, "fuzz.xml");
      EXPECT_EQ(test::checkLoadInvariants(input, "fuzz.xml", r), "") << entry.path();
      ++inputs;
    }
  }
  EXPECT_GE(inputs, 20);
}

}  // namespace
}  // namespace sotto::config
