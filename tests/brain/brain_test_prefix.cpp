// SPDX-License-Identifier: MIT
// The system prompt's KV: computed and saved at the first start, restored at the next (same answers), and a
// damaged or mismatched file is rejected with the reason and rebuilt.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

// mkgguf.py's tiny-llama: SmolLM2's vocabulary and chat template (with its default system turn), 2 layers.
std::string makeTinyChatModel(const std::string& dir, int seed = 1) {
  const std::string path = dir + "/tiny-llama-q8_0-" + std::to_string(seed) + ".gguf";
  const std::string cmd = "/usr/bin/python3 " + sourcePath("../shared/tools/mkgguf.py") +
                          " --shape tiny-llama --type q8_0 --seed " + std::to_string(seed) + " -q -o " + path +
                          " > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? path : std::string();
}

bool anyWarningWith(const Brain& b, const std::string& needle) {
  for (const std::string& w : b.warnings()) {
    if (w.find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(BrainSystemPrompt, KvIsSavedRestoredAndRebuiltWhenDamagedOrMismatched) {
  ScratchDir models, dir;
  const std::string model = makeTinyChatModel(models.path());
  if (model.empty()) GTEST_SKIP() << "mkgguf.py needs /usr/bin/python3 with numpy";
  config::Config c = modelOnlyConfig(dir.path(), model);
  const BrainOverrides o = localOverrides();
  const std::string kv = dir.path() + "/" + kSystemPromptKvFile;

  std::string first;
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(b->systemPromptRestored());
    EXPECT_NE(b->systemPromptReport().find("computed"), std::string::npos) << b->systemPromptReport();
    EXPECT_FALSE(anyWarningWith(*b, "system prompt")) << "a first start is no problem";
    first = ask(*b, "what is the tallest mountain").answer;
    ASSERT_FALSE(first.empty());
  }
  ASSERT_TRUE(std::filesystem::exists(kv));
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->systemPromptRestored()) << b->systemPromptReport();
    EXPECT_NE(b->systemPromptReport().find("restored"), std::string::npos) << b->systemPromptReport();
    EXPECT_EQ(ask(*b, "what is the tallest mountain").answer, first) << "the restored KV answers differently";
  }
  // Damaged (one byte flipped in the middle): rejected with the reason, computed again and saved again.
  {
    std::fstream f(kv, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const auto size = static_cast<std::streamoff>(f.tellg());
    f.seekg(size / 2);
    char byte = 0;
    f.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x5a);
    f.seekp(size / 2);
    f.write(&byte, 1);
  }
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(b->systemPromptRestored());
    EXPECT_TRUE(anyWarningWith(*b, "rejected and rebuilt")) << (b->warnings().empty() ? "" : b->warnings()[0]);
    EXPECT_EQ(ask(*b, "what is the tallest mountain").answer, first);
  }
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->systemPromptRestored()) << "the rebuilt file was not saved: " << b->systemPromptReport();
  }
  // Other weights renamed over the model file (how models are replaced): the remembered model identity is not
  // trusted for the new file, and the KV saved for the old weights is rejected.
  const std::string other = makeTinyChatModel(models.path(), 2);
  ASSERT_FALSE(other.empty());
  ASSERT_EQ(std::rename(other.c_str(), model.c_str()), 0);
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(b->systemPromptRestored()) << "KV of other weights was trusted: " << b->systemPromptReport();
    EXPECT_TRUE(anyWarningWith(*b, "rejected and rebuilt"));
  }
  // Saved for another context size: stale, rejected and rebuilt.
  c.contextTokens = 128;
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(b->systemPromptRestored());
    EXPECT_TRUE(anyWarningWith(*b, "rejected and rebuilt"));
  }
}

// model.prefix-cache=false: no system prompt KV is restored or saved, and a request keeps nothing of the one
// before (the comparison baseline of sotto-bench e2e); the answers are the same.
TEST(BrainSystemPrompt, PrefixCacheOffEvaluatesEveryPromptWhole) {
  ScratchDir models, dir, offDir;
  const std::string model = makeTinyChatModel(models.path());
  if (model.empty()) GTEST_SKIP() << "mkgguf.py needs /usr/bin/python3 with numpy";
  const config::Config c = modelOnlyConfig(dir.path(), model);
  const BrainOverrides o = localOverrides();
  std::string onFirst, onSecond;
  {
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    onFirst = ask(*b, "what is the tallest mountain").answer;
    EXPECT_GT(b->lastPromptReuse().reusedTokens, 0u) << "the system prompt's KV was not used";
    onSecond = ask(*b, "what is the longest river").answer;
    EXPECT_GT(b->lastPromptReuse().reusedTokens, 0u);
  }
  config::Config off = modelOnlyConfig(offDir.path(), model);
  off.modelPrefixCache = false;
  auto b = makeBrain(off, o);
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->systemPromptRestored());
  EXPECT_NE(b->systemPromptReport().find("not kept"), std::string::npos) << b->systemPromptReport();
  EXPECT_EQ(ask(*b, "what is the tallest mountain").answer, onFirst);
  EXPECT_EQ(b->lastPromptReuse().reusedTokens, 0u);
  EXPECT_GT(b->lastPromptReuse().promptTokens, 0u);
  EXPECT_EQ(ask(*b, "what is the longest river").answer, onSecond);
  EXPECT_EQ(b->lastPromptReuse().reusedTokens, 0u) << "the previous request's prefix was kept";
  EXPECT_FALSE(std::filesystem::exists(offDir.path() + "/" + kSystemPromptKvFile));
}

}  // namespace
}  // namespace sotto::answer::test
