// SPDX-License-Identifier: MIT
// Sampler: the PRNG stream is pinned, greedy ties, each filter, the penalty, and the draw's distribution.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/llm/sampler.h"

namespace sotto::llm {
namespace {

std::unique_ptr<Sampler> make(size_t n, const SamplerOptions& o) {
  auto s = Sampler::create(n, o);
  EXPECT_TRUE(s.ok());
  return s.ok() ? std::move(*s) : nullptr;
}

TEST(Rng, StreamIsPinned) {
  // splitmix64-seeded xoshiro256**: these values come from the published algorithms, not from this code.
  Rng a(0);
  EXPECT_EQ(a.next(), 0x99ec5f36cb75f2b4ull);
  EXPECT_EQ(a.next(), 0xbf6e1f784956452aull);
  EXPECT_EQ(a.next(), 0x1a5f849d4933e6e0ull);
  Rng b(42);
  EXPECT_EQ(b.next(), 0x15780b2e0c2ec716ull);
  EXPECT_EQ(b.next(), 0x6104d9866d113a7eull);
  for (int i = 0; i < 1000; ++i) {
    const double u = b.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(Sampler, GreedyTakesTheLowestIdOnTies) {
  SamplerOptions o;
  o.temperature = 0.0f;
  auto s = make(5, o);
  const std::vector<float> logits = {0.5f, 2.0f, -1.0f, 2.0f, 1.0f};
  const SampledToken t = s->sample(logits);
  EXPECT_EQ(t.id, 1);
  EXPECT_NEAR(t.margin, 0.0f, 1e-6f);  // two tokens share the top probability
  double z = 0;
  for (const float v : logits) z += std::exp(static_cast<double>(v));
  EXPECT_NEAR(t.prob, std::exp(2.0) / z, 1e-6);
  EXPECT_NEAR(t.logProb, 2.0 - std::log(z), 1e-6);
}

TEST(Sampler, TopKOneAndTinyTopPAreGreedy) {
  std::vector<float> logits(1000);
  for (size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<float>(std::sin(static_cast<double>(i)) * 3);
  const auto best = static_cast<TokenId>(std::max_element(logits.begin(), logits.end()) - logits.begin());
  SamplerOptions o;
  o.temperature = 1.5f;
  o.topK = 1;
  auto s = make(logits.size(), o);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(s->sample(logits).id, best);
  o.topK = 0;
  o.topP = 1e-6f;
  o.minP = 0.0f;
  ASSERT_TRUE(s->configure(o).ok());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(s->sample(logits).id, best);
}

TEST(Sampler, FiltersKeepOnlyAllowedTokens) {
  // p ∝ e^{l}: token 0 ≈ 0.64, 1 ≈ 0.24, 2 ≈ 0.09, 3 ≈ 0.03 (and a long tail of near-zero ones).
  std::vector<float> logits(64, -30.0f);
  logits[0] = 3.0f;
  logits[1] = 2.0f;
  logits[2] = 1.0f;
  logits[3] = 0.0f;
  SamplerOptions o;
  o.temperature = 1.0f;
  o.topK = 0;
  o.topP = 0.8f;  // 0.64 < 0.8 ≤ 0.64 + 0.24: tokens 0 and 1
  o.minP = 0.0f;
  auto s = make(logits.size(), o);
  std::vector<int> seen(64);
  for (int i = 0; i < 2000; ++i) ++seen[static_cast<size_t>(s->sample(logits).id)];
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[1], 0);
  EXPECT_EQ(seen[0] + seen[1], 2000);

  o.topP = 1.0f;
  o.minP = 0.1f;  // ≥ 0.064: tokens 0, 1, 2
  ASSERT_TRUE(s->configure(o).ok());
  std::fill(seen.begin(), seen.end(), 0);
  for (int i = 0; i < 4000; ++i) ++seen[static_cast<size_t>(s->sample(logits).id)];
  EXPECT_GT(seen[2], 0);
  EXPECT_EQ(seen[0] + seen[1] + seen[2], 4000);

  o.minP = 0.0f;
  o.topK = 2;
  ASSERT_TRUE(s->configure(o).ok());
  std::fill(seen.begin(), seen.end(), 0);
  for (int i = 0; i < 2000; ++i) ++seen[static_cast<size_t>(s->sample(logits).id)];
  EXPECT_EQ(seen[0] + seen[1], 2000);
}

TEST(Sampler, DrawFollowsTheTemperedDistribution) {
  const std::vector<float> logits = {1.0f, 0.0f, -1.0f};
  SamplerOptions o;
  o.temperature = 2.0f;
  o.topK = 0;
  o.topP = 1.0f;
  o.minP = 0.0f;
  o.seed = 123;
  auto s = make(3, o);
  std::vector<int> seen(3);
  const int n = 20000;
  for (int i = 0; i < n; ++i) ++seen[static_cast<size_t>(s->sample(logits).id)];
  double z = 0;
  for (const float l : logits) z += std::exp(l / 2.0);
  for (size_t i = 0; i < 3; ++i) {
    const double p = std::exp(logits[i] / 2.0) / z;
    EXPECT_NEAR(seen[i] / static_cast<double>(n), p, 0.015) << "token " << i;
  }
}

TEST(Sampler, SameSeedSameSequence) {
  std::vector<float> logits(300);
  for (size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<float>(std::cos(0.1 * static_cast<double>(i)));
  SamplerOptions o;
  o.temperature = 1.0f;
  o.seed = 99;
  auto a = make(logits.size(), o);
  auto b = make(logits.size(), o);
  std::vector<TokenId> sa, sb;
  for (int i = 0; i < 100; ++i) {
    sa.push_back(a->sample(logits).id);
    sb.push_back(b->sample(logits).id);
  }
  EXPECT_EQ(sa, sb);
  ASSERT_TRUE(a->configure(o).ok());  // reconfiguring restarts the stream
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a->sample(logits).id, sa[static_cast<size_t>(i)]);
}

TEST(Sampler, RepetitionPenaltyDemotesRecentTokens) {
  const std::vector<float> logits = {2.0f, 1.9f, -1.0f, -1.1f};
  SamplerOptions o;
  o.temperature = 0.0f;
  o.repeatPenalty = 1.5f;
  o.repeatLastN = 2;
  auto s = make(4, o);
  EXPECT_EQ(s->sample(logits).id, 0);
  s->accept(0);
  s->accept(0);  // counted once however often it occurred: 2 / 1.5 = 1.33 < 1.9
  EXPECT_EQ(s->sample(logits).id, 1);
  s->accept(1);
  s->accept(3);  // window of 2: token 0 has left it
  EXPECT_EQ(s->sample(logits).id, 0);
  // Negative logits are multiplied: token 2 (-1.0 → -1.5) falls below token 3 (-1.1) when both are out of reach.
  const std::vector<float> neg = {-1.0f, -1.1f};
  auto t = make(2, o);
  t->accept(0);
  EXPECT_EQ(t->sample(neg).id, 1);
}

TEST(Sampler, RejectsBadOptions) {
  SamplerOptions o;
  o.repeatLastN = 5000;
  EXPECT_FALSE(Sampler::create(10, o).ok());
  o.repeatLastN = 64;
  o.temperature = std::nanf("");
  EXPECT_FALSE(Sampler::create(10, o).ok());
  EXPECT_FALSE(Sampler::create(0, SamplerOptions{}).ok());
}

}  // namespace
}  // namespace sotto::llm
