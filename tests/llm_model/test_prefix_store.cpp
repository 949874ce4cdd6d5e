// SPDX-License-Identifier: MIT
// Prefix cache on disk: a restored prefix answers exactly like a computed one; stale, corrupt, truncated and
// missing files are rebuilt (never trusted); a failing save keeps the prefix in memory.
#include <sys/stat.h>

#include "engine/llm/prefix_store.h"
#include "sotto/hal/atomic_file.h"
#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {
namespace {

// A system prompt (the cached part) and a user turn, in stories260K's vocabulary.
const std::vector<TokenId> kSystem = {1, 403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315};
const std::vector<TokenId> kUser = {421, 286, 261, 376};

class PrefixStore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { m_ = new LoadedModel(loadModel(sharedPath("models/stories260K-f32.gguf"))); }
  static void TearDownTestSuite() { delete m_; }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sotto-prefix-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "prefix.kv").string();
    id_.modelSha256 = modelSha256(m_->model->file());
    id_.templateName = "chatml";
    id_.backend = "cpu";
    id_.contextTokens = 256;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  static std::unique_ptr<Generator> generator() {
    GeneratorOptions o;
    o.context.nCtx = 256;
    auto g = Generator::create(*m_->model, *m_->tokenizer, o);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(*g) : nullptr;
  }
  // Greedy answer to system + user, plus how many prompt tokens came from the cache.
  static std::pair<std::vector<TokenId>, size_t> answer(Generator& g) {
    std::vector<TokenId> prompt = kSystem;
    prompt.insert(prompt.end(), kUser.begin(), kUser.end());
    GenerateOptions o;
    o.sampling.temperature = 0.0f;
    o.maxTokens = 16;
    o.stopAtEog = false;
    struct Sink final : GenerationSink {
      std::vector<TokenId> ids;
      void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
    } sink;
    auto r = g.generate(std::span<const TokenId>(prompt), o, &sink);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return {sink.ids, r.ok() ? r->reusedTokens : 0};
  }
  // Builds and saves the prefix with a fresh generator; returns the answer computed without any cache.
  std::vector<TokenId> saveFresh() {
    auto g = generator();
    auto out = restoreOrBuildPrefix(path_, id_, *g, kSystem);
    EXPECT_TRUE(out.ok());
    EXPECT_FALSE(out->restored);
    EXPECT_EQ(out->saveError, "");
    auto cold = generator();
    return answer(*cold).first;
  }

  static LoadedModel* m_;
  std::filesystem::path dir_;
  std::string path_;
  PrefixIdentity id_;
};
LoadedModel* PrefixStore::m_ = nullptr;

TEST_F(PrefixStore, RestoredPrefixAnswersLikeAComputedOne) {
  const auto expected = saveFresh();
  auto g = generator();
  auto out = restoreOrBuildPrefix(path_, id_, *g, kSystem);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->restored) << out->why;
  EXPECT_EQ(out->tokens, kSystem.size());
  const auto [ids, reused] = answer(*g);
  EXPECT_EQ(reused, kSystem.size());
  EXPECT_EQ(ids, expected);
  // The file is private to the service user.
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(PrefixStore, MissingFileIsBuiltAndSaved) {
  auto g = generator();
  auto out = restoreOrBuildPrefix(path_, id_, *g, kSystem);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->restored);
  EXPECT_NE(out->why.find("cannot open"), std::string::npos) << out->why;
  EXPECT_TRUE(std::filesystem::exists(path_));
  EXPECT_EQ(answer(*g).second, kSystem.size());
}

TEST_F(PrefixStore, StaleIdentityIsRebuiltNeverTrusted) {
  saveFresh();
  struct Case {
    const char* what;
    void (*change)(PrefixIdentity&);
    const char* why;
  };
  const Case cases[] = {
      {"model", [](PrefixIdentity& i) { i.modelSha256[5] ^= 1; }, "another model"},
      {"template", [](PrefixIdentity& i) { i.templateName = "llama3"; }, "chat template"},
      {"backend", [](PrefixIdentity& i) { i.backend = "cpu-ref"; }, "backend"},
      {"context", [](PrefixIdentity& i) { i.contextTokens = 512; }, "context"},
  };
  for (const Case& c : cases) {
    PrefixIdentity other = id_;
    c.change(other);
    auto g = generator();
    auto loaded = loadPrefix(path_, other, *g);
    ASSERT_FALSE(loaded.ok()) << c.what;
    EXPECT_EQ(loaded.error().code, Errc::invalid_argument) << c.what;
    EXPECT_NE(loaded.error().message.find(c.why), std::string::npos) << loaded.error().message;
    EXPECT_TRUE(g->cachedTokens().empty());
  }
  // A different system prompt under the same identity is recomputed too.
  auto g = generator();
  std::vector<TokenId> other = kSystem;
  other.back() = 300;
  auto out = restoreOrBuildPrefix(path_, id_, *g, other);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->restored);
  EXPECT_NE(out->why.find("another prompt"), std::string::npos) << out->why;
}

TEST_F(PrefixStore, CorruptOrTruncatedFilesAreDetected) {
  saveFresh();
  auto bytes = hal::readFile(path_, 1u << 30);
  ASSERT_TRUE(bytes.ok());
  const std::vector<uint8_t> good = *bytes;
  // A flipped bit anywhere (header, ids, values, checksum), a truncation, garbage and an empty file.
  std::vector<std::vector<uint8_t>> bad;
  for (size_t pos : {size_t{3}, size_t{20}, size_t{150}, good.size() / 2, good.size() - 1}) {
    auto b = good;
    b[pos] ^= 0x10;
    bad.push_back(b);
  }
  bad.emplace_back(good.begin(), good.begin() + static_cast<ptrdiff_t>(good.size() - 100));
  bad.emplace_back(good.begin(), good.begin() + 40);
  bad.emplace_back(std::vector<uint8_t>(good.size(), 0xAB));
  bad.emplace_back();
  for (size_t i = 0; i < bad.size(); ++i) {
    ASSERT_TRUE(hal::writeFileAtomic(path_, bad[i], 0600).ok());
    auto g = generator();
    auto loaded = loadPrefix(path_, id_, *g);
    ASSERT_FALSE(loaded.ok()) << "case " << i;
    EXPECT_EQ(loaded.error().code, Errc::corrupt) << "case " << i << ": " << loaded.error().message;
    EXPECT_TRUE(g->cachedTokens().empty());
    // The start-up path replaces it with a good one.
    auto out = restoreOrBuildPrefix(path_, id_, *g, kSystem);
    ASSERT_TRUE(out.ok());
    EXPECT_FALSE(out->restored);
    auto again = generator();
    EXPECT_TRUE(loadPrefix(path_, id_, *again).ok()) << "case " << i;
  }
}

TEST_F(PrefixStore, FailedSaveKeepsThePrefixInMemory) {
  // The state "directory" is a regular file: the save fails whoever we run as (root ignores read-only modes).
  const std::string notADir = (dir_ / "state").string();
  ASSERT_TRUE(hal::writeFileAtomic(notADir, std::vector<uint8_t>{1, 2, 3}, 0600).ok());
  auto g = generator();
  auto out = restoreOrBuildPrefix(notADir + "/prefix.kv", id_, *g, kSystem);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->restored);
  EXPECT_NE(out->saveError.find("cannot create a temporary file"), std::string::npos) << out->saveError;
  EXPECT_EQ(answer(*g).second, kSystem.size());
}

TEST_F(PrefixStore, SaveRejectsMoreTokensThanCached) {
  auto g = generator();
  EXPECT_FALSE(savePrefix(path_, id_, *g, 1).ok());
  ASSERT_TRUE(g->warmPrefix(kSystem).ok());
  EXPECT_FALSE(savePrefix(path_, id_, *g, kSystem.size() + 1).ok());
  EXPECT_TRUE(savePrefix(path_, id_, *g, kSystem.size()).ok());
}

}  // namespace
}  // namespace sotto::llm::test
