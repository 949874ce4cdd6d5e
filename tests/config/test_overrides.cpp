// SPDX-License-Identifier: MIT
// applyOverrides: "setting=value" from the command line, checked like the file, all or nothing.
#include <gtest/gtest.h>

#include "test_util.h"

namespace sotto::config {
namespace {

using test::formatted;

LoadResult apply(std::vector<std::string> assignments, const Config& base = defaults()) {
  return applyOverrides(base, assignments);
}

TEST(Overrides, ApplyOnTopOfTheBase) {
  Config base = defaults();
  base.modelPath = "/opt/model.gguf";
  const LoadResult r = apply({"log.level=debug", "audio.capture.rate=8000", "threads.llm-cpus=2-3",
                              "cloud.endpoint=https://x.example/v1?a=b", "cloud.model=m"},
                             base);
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  Config expected = base;
  expected.logLevel = "debug";
  expected.capture.rateHz = 8000;
  expected.llmCpus = {2, 3};
  expected.cloudEndpoint = "https://x.example/v1?a=b";  // only the first '=' separates
  expected.cloudModel = "m";
  EXPECT_EQ(*r.config, expected);
}

TEST(Overrides, NoneIsTheBase) {
  const LoadResult r = apply({});
  ASSERT_TRUE(r.config);
  EXPECT_EQ(*r.config, defaults());
}

TEST(Overrides, EmptyValueWhereAllowed) {
  Config base = defaults();
  base.audioCpus = {1};
  const LoadResult r = apply({"threads.audio-cpus="}, base);
  ASSERT_TRUE(r.config);
  EXPECT_TRUE(r.config->audioCpus.empty());
}

TEST(Overrides, EveryProblemAndNothingApplied) {
  const LoadResult r = apply({"log.level=debug", "log.levl=debug", "audio.capture.rate=5", "nonsense", "=x",
                              "log.level=info", "privacy.mode=open"});
  EXPECT_FALSE(r.config);
  EXPECT_EQ(formatted(r), (std::vector<std::string>{
                              "--set: log.levl: unknown setting; did you mean log.level?",
                              "--set: audio.capture.rate: 5 is out of range [8000, 48000] (Hz)",
                              "--set: \"nonsense\" is not setting=value (e.g. log.level=debug)",
                              "--set: \"=x\" is not setting=value (e.g. log.level=debug)",
                              "--set: log.level: set twice",
                              "--set: privacy.mode: \"open\" is not one of offline, private, standard",
                          }));
}

TEST(Overrides, RulesSeeTheCombinedResult) {
  // Raising both budgets together is fine even though the first alone would break a rule.
  const LoadResult both = apply({"latency.simple-ms=900", "latency.local-ms=1000"});
  ASSERT_TRUE(both.config) << ::testing::PrintToString(formatted(both));
  EXPECT_EQ(formatted(apply({"latency.local-ms=500"})),
            std::vector<std::string>{"--set: latency.local-ms: 500 ms is less than latency.first-token-ms (700 ms): "
                                     "the first token comes before the first audio of a model answer"});
}

}  // namespace
}  // namespace sotto::config
