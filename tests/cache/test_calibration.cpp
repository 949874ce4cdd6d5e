// SPDX-License-Identifier: MIT
// Semantic-tier calibration at create(): the embedder's own similarity of unrelated and paraphrased requests
// raises the threshold, or turns the tier off (and says why) when the embedder cannot separate them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/cache/cache_test_util.h"

namespace sotto::cache::test {
namespace {

// A usable embedder with a strong common component, as real models have: a bias dimension plus signed hashes of
// the stemmed content words. Paraphrases with the same content words embed identically; unrelated requests
// still score about 0.93, above the configured 0.90, so calibration must raise the threshold.
class BiasedTopicEmbedder final : public Embedder {
 public:
  static constexpr std::size_t kDim = 64;
  float bias = 6.0f;
  std::size_t dimension() const noexcept override { return kDim; }
  Status embed(std::string_view text, std::span<float> out) override {
    std::fill(out.begin(), out.end(), 0.0f);
    out[0] = bias;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view w = text.substr(start, end - start);
      start = end + 1;
      if (w.empty() || isStopWord(w)) continue;
      char buf[64];
      const std::uint64_t h = fnv1a64(contentWordStem(w, buf));
      out[1 + h % (kDim - 1)] += (h >> 32) & 1 ? 1.0f : -1.0f;
    }
    return {};
  }
};

// Separates everything, paraphrases included: a pseudo-random direction per distinct text.
class TextHashEmbedder final : public Embedder {
 public:
  std::size_t dimension() const noexcept override { return 64; }
  Status embed(std::string_view text, std::span<float> out) override {
    std::uint64_t h = fnv1a64(text);
    for (float& v : out) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      v = static_cast<float>(static_cast<std::int64_t>(h >> 11) % 2001 - 1000) / 1000.0f;
    }
    return {};
  }
};

class FailingEmbedder final : public Embedder {
 public:
  std::size_t dimension() const noexcept override { return 16; }
  Status embed(std::string_view, std::span<float>) override {
    return makeError(Errc::internal, "model context lost");
  }
};

CacheOptions calibrated() {
  CacheOptions o;
  o.exactEntries = 16;
  o.semanticEntries = 16;
  o.semanticThreshold = 0.90f;
  o.calibrateSemantic = true;
  return o;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

TEST(Calibration, TurnsTheTierOffWhenTheModelCannotSeparateUnrelatedRequests) {
  FakeClock clock;
  SameDirectionEmbedder emb;
  auto cache = makeCache(calibrated(), &emb, &clock);
  ASSERT_TRUE(cache);
  const SemanticCalibration& c = cache->calibration();
  EXPECT_TRUE(c.ran);
  EXPECT_FALSE(c.usable);
  EXPECT_GT(c.unrelatedP95 + kCalibrationMargin, kMaxUsableThreshold);
  EXPECT_EQ(c.unrelatedPairs, 66u);
  EXPECT_EQ(c.relatedPairs, 8u);
  EXPECT_TRUE(contains(c.reason, "cannot tell unrelated requests apart")) << c.reason;
  EXPECT_TRUE(contains(c.summary(), c.reason.c_str())) << c.summary();
  EXPECT_TRUE(contains(c.summary(), "threshold")) << c.summary();
  EXPECT_EQ(cache->options().semanticEntries, 0u);
  // The exact tier still works; the semantic tier is never consulted (and the model never runs for it).
  const int callsAfterCreate = emb.calls;
  ASSERT_EQ(cache->insert("can i cancel the order", "Within 14 days.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  EXPECT_EQ(cache->lookup("Can I cancel the order?").tier, Tier::exact);
  const auto r = cache->lookup("cancel the timer");
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.similarity, 0.0f);
  EXPECT_EQ(cache->semanticSize(), 0u);
  EXPECT_EQ(cache->metrics().semanticLookups, 0u);
  EXPECT_EQ(emb.calls, callsAfterCreate);
}

TEST(Calibration, KeepsTheTierAndRaisesTheThresholdAboveUnrelatedPairs) {
  FakeClock clock;
  BiasedTopicEmbedder emb;
  auto cache = makeCache(calibrated(), &emb, &clock);
  ASSERT_TRUE(cache);
  const SemanticCalibration& c = cache->calibration();
  EXPECT_TRUE(c.ran);
  ASSERT_TRUE(c.usable) << c.reason;
  EXPECT_TRUE(c.reason.empty());
  EXPECT_GT(c.unrelatedP95, 0.90f);  // this model's unrelated requests reach the configured threshold
  EXPECT_FLOAT_EQ(c.threshold, c.unrelatedP95 + kCalibrationMargin);
  EXPECT_GE(c.unrelatedMax, c.unrelatedP95);
  EXPECT_GE(c.relatedMedian, c.threshold);
  EXPECT_FLOAT_EQ(c.configuredThreshold, 0.90f);
  EXPECT_FLOAT_EQ(cache->options().semanticThreshold, c.threshold);
  EXPECT_EQ(cache->options().semanticEntries, 16u);
  // A paraphrase still hits through the semantic tier.
  ASSERT_EQ(cache->insert("how many legs does a spider have", "Eight.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  const auto hit = cache->lookup("tell me how many legs spiders have");
  EXPECT_EQ(hit.tier, Tier::semantic);
  EXPECT_EQ(hit.answer, "Eight.");

  // A candidate between the configured and the calibrated threshold (content words agree, so only the threshold
  // decides): the uncalibrated cache takes it, the calibrated one does not.
  const float between = 0.5f * (0.90f + c.threshold);
  std::vector<float> stored(8, 0.0f), query(8, 0.0f);
  stored[0] = 1.0f;
  query[0] = between;
  query[1] = std::sqrt(1.0f - between * between);
  CacheOptions plain = calibrated();
  plain.calibrateSemantic = false;
  plain.embeddingDim = 8;
  CacheOptions raised = plain;
  raised.semanticThreshold = cache->options().semanticThreshold;
  for (const bool isRaised : {false, true}) {
    auto explicitCache = makeCache(isRaised ? raised : plain, nullptr, &clock);
    ASSERT_TRUE(explicitCache);
    ASSERT_EQ(explicitCache->insert("why is the sky blue", "Rayleigh scattering.", AnswerClass::staticKnowledge,
                                    stored, 0),
              InsertOutcome::stored);
    const auto r = explicitCache->lookup("tell me why the sky is blue", query, 0);
    EXPECT_NEAR(r.similarity, between, 1e-4);
    EXPECT_EQ(r.hit(), !isRaised) << "threshold " << explicitCache->options().semanticThreshold;
  }
}

TEST(Calibration, NeverLowersTheConfiguredThreshold) {
  FakeClock clock;
  BiasedTopicEmbedder emb;
  emb.bias = 1.0f;  // unrelated requests far apart: the calibrated threshold would sit below the configured one
  auto cache = makeCache(calibrated(), &emb, &clock);
  ASSERT_TRUE(cache);
  const SemanticCalibration& c = cache->calibration();
  ASSERT_TRUE(c.usable) << c.reason;
  EXPECT_LT(c.unrelatedP95 + kCalibrationMargin, 0.90f);
  EXPECT_FLOAT_EQ(c.threshold, 0.90f);
  EXPECT_FLOAT_EQ(cache->options().semanticThreshold, 0.90f);
}

TEST(Calibration, TurnsTheTierOffWhenTheModelDoesNotRecogniseParaphrases) {
  FakeClock clock;
  TextHashEmbedder emb;
  auto cache = makeCache(calibrated(), &emb, &clock);
  ASSERT_TRUE(cache);
  const SemanticCalibration& c = cache->calibration();
  EXPECT_FALSE(c.usable);
  EXPECT_LT(c.relatedMedian, c.threshold);
  EXPECT_TRUE(contains(c.reason, "paraphrases")) << c.reason;
  EXPECT_EQ(cache->options().semanticEntries, 0u);
}

TEST(Calibration, TurnsTheTierOffWhenTheEmbedderFails) {
  FakeClock clock;
  FailingEmbedder emb;
  auto cache = makeCache(calibrated(), &emb, &clock);
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->calibration().usable);
  EXPECT_TRUE(contains(cache->calibration().reason, "model context lost")) << cache->calibration().reason;
  EXPECT_EQ(cache->options().semanticEntries, 0u);
  ASSERT_EQ(cache->insert("why is the sky blue", "Scattering.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  EXPECT_EQ(cache->lookup("Why is the sky blue?").tier, Tier::exact);
}

TEST(Calibration, IsRememberedPerModelAndUsedWithoutEmbeddingAgain) {
  FakeClock clock;
  BiasedTopicEmbedder topic;
  const SemanticCalibration measured = calibrateSemantic(topic, 0.90f);
  ASSERT_TRUE(measured.usable);
  const std::string text = serializeCalibration(measured, "/models/a.gguf 1234 5.6 64");
  ASSERT_FALSE(text.empty());
  const auto back = parseCalibration(text, "/models/a.gguf 1234 5.6 64", 0.90f);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->remembered);
  EXPECT_TRUE(back->usable);
  EXPECT_EQ(back->threshold, measured.threshold);  // exact: the text keeps every bit of a float
  EXPECT_EQ(back->unrelatedP95, measured.unrelatedP95);
  EXPECT_EQ(back->relatedMedian, measured.relatedMedian);
  EXPECT_EQ(back->unrelatedPairs, measured.unrelatedPairs);
  // Another model file (or the same one rewritten), another configured threshold, damage: measure again.
  EXPECT_FALSE(parseCalibration(text, "/models/a.gguf 1234 5.7 64", 0.90f).has_value());
  EXPECT_FALSE(parseCalibration(text, "/models/a.gguf 1234 5.6 64", 0.85f).has_value());
  std::string damaged = text;
  damaged[damaged.find(' ') + 1] = damaged[damaged.find(' ') + 1] == '1' ? '2' : '1';  // the prompt sets' hash
  EXPECT_FALSE(parseCalibration(damaged, "/models/a.gguf 1234 5.6 64", 0.90f).has_value());
  EXPECT_FALSE(parseCalibration(text.substr(0, text.size() / 2), "/models/a.gguf 1234 5.6 64", 0.90f).has_value());
  EXPECT_FALSE(parseCalibration("", "/models/a.gguf 1234 5.6 64", 0.90f).has_value());

  // The cache takes the remembered decision without running the model.
  SameDirectionEmbedder counting;
  CacheOptions o = calibrated();
  o.knownCalibration = back;
  auto cache = makeCache(o, &counting, &clock);
  ASSERT_TRUE(cache);
  EXPECT_EQ(counting.calls, 0);
  EXPECT_TRUE(cache->calibration().remembered);
  EXPECT_FLOAT_EQ(cache->options().semanticThreshold, measured.threshold);
  EXPECT_NE(cache->calibration().summary().find("remembered"), std::string::npos);

  // An "off" decision is remembered with its reason; an embedder failure is not remembered at all.
  const SemanticCalibration off = calibrateSemantic(counting, 0.90f);
  ASSERT_FALSE(off.usable);
  const auto offBack = parseCalibration(serializeCalibration(off, "m"), "m", 0.90f);
  ASSERT_TRUE(offBack.has_value());
  EXPECT_FALSE(offBack->usable);
  EXPECT_EQ(offBack->reason, off.reason);
  FailingEmbedder failing;
  EXPECT_TRUE(serializeCalibration(calibrateSemantic(failing, 0.90f), "m").empty());
}

TEST(Calibration, NotAskedForLeavesTheOptionsAlone) {
  FakeClock clock;
  SameDirectionEmbedder emb;
  CacheOptions o = calibrated();
  o.calibrateSemantic = false;
  auto cache = makeCache(o, &emb, &clock);
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->calibration().ran);
  EXPECT_EQ(emb.calls, 0);
  EXPECT_EQ(cache->options().semanticEntries, 16u);
  EXPECT_FLOAT_EQ(cache->options().semanticThreshold, 0.90f);
}

}  // namespace
}  // namespace sotto::cache::test
