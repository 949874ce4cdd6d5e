// SPDX-License-Identifier: MIT
// The domain language model's estimator: Witten-Bell probabilities worked out by hand on three sentences, the ARPA
// file's counts and lines, and pocketsphinx reading the file back to the same probabilities.
#include <gtest/gtest.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/speech/lm_estimator.h"

namespace {

using sotto::speech::TrigramEstimator;

// <s> turn it up </s> / <s> turn it down </s> / <s> turn up </s>
TrigramEstimator threeCommands() {
  TrigramEstimator e;
  EXPECT_TRUE(e.addSentence({"turn", "it", "up"}).ok());
  EXPECT_TRUE(e.addSentence({"turn", "it", "down"}).ok());
  EXPECT_TRUE(e.addSentence({"turn", "up"}).ok());
  return e;
}

TEST(DomainLm, WittenBellByHand) {
  const TrigramEstimator e = threeCommands();
  EXPECT_EQ(e.sentences(), 3u);
  EXPECT_EQ(e.vocabularySize(), 5u);  // turn it up down </s>
  // Unigrams: N = 11 predicted words, T = 5 types; P(w) = (c(w) + 1) / 16.
  EXPECT_DOUBLE_EQ(e.probability("up", {}), 3.0 / 16);
  EXPECT_DOUBLE_EQ(e.probability("down", {}), 2.0 / 16);
  EXPECT_DOUBLE_EQ(e.probability("</s>", {}), 4.0 / 16);
  EXPECT_DOUBLE_EQ(e.probability("<s>", {}), 0.0);
  EXPECT_DOUBLE_EQ(e.probability("volume", {}), 0.0);  // not in the vocabulary
  // After "turn": c = 3 (it 2, up 1), T = 2. P(up | turn) = (1 + 2 * 3/16) / 5; unseen down: 2 * 2/16 / 5.
  EXPECT_DOUBLE_EQ(e.probability("up", {"turn"}), 0.275);
  EXPECT_DOUBLE_EQ(e.probability("down", {"turn"}), 0.05);
  // After "<s> turn": c = 3 (it 2, up 1), T = 2. P(up | <s> turn) = (1 + 2 * 0.275) / 5.
  EXPECT_DOUBLE_EQ(e.probability("up", {"<s>", "turn"}), 0.31);
  EXPECT_DOUBLE_EQ(e.probability("down", {"<s>", "turn"}), 0.02);
  // P(down | it) = (1 + 2 * 2/16) / 4 = 0.3125; P(down | turn it) = (1 + 2 * 0.3125) / 4.
  EXPECT_DOUBLE_EQ(e.probability("down", {"it"}), 0.3125);
  EXPECT_DOUBLE_EQ(e.probability("down", {"turn", "it"}), 0.40625);
  // Only the last two words of a longer history count.
  EXPECT_DOUBLE_EQ(e.probability("down", {"up", "turn", "it"}), 0.40625);
  // Each history's distribution sums to one over the vocabulary.
  for (const std::vector<std::string>& h : std::vector<std::vector<std::string>>{{}, {"turn"}, {"turn", "it"}, {"<s>"}}) {
    double sum = 0;
    for (const char* w : {"turn", "it", "up", "down", "</s>"}) sum += e.probability(w, h);
    EXPECT_NEAR(sum, 1.0, 1e-12) << h.size();
  }
}

TEST(DomainLm, ArpaCountsLinesAndRefusals) {
  const TrigramEstimator e = threeCommands();
  auto arpa = e.arpa();
  ASSERT_TRUE(arpa.ok()) << arpa.error().message;
  const std::string& t = *arpa;
  EXPECT_NE(t.find("\\data\\\nngram 1=6\nngram 2=7\nngram 3=7\n"), std::string::npos) << t;
  EXPECT_NE(t.find("-99.000000\t<s>\t"), std::string::npos) << t;
  char want[96];
  // A trigram's interpolated probability; a bigram's with the back-off weight of its context T/(c+T) = 2/4.
  std::snprintf(want, sizeof want, "%.6f\tturn it down\n", std::log10(0.40625));
  EXPECT_NE(t.find(want), std::string::npos) << want << t;
  std::snprintf(want, sizeof want, "%.6f\tturn it\t%.6f\n", std::log10(e.probability("it", {"turn"})), std::log10(0.5));
  EXPECT_NE(t.find(want), std::string::npos) << want << t;
  EXPECT_NE(t.rfind("\\end\\\n"), std::string::npos);
  TrigramEstimator empty;
  EXPECT_FALSE(empty.arpa().ok());
  TrigramEstimator bad;
  EXPECT_FALSE(bad.addSentence({"two words"}).ok());
  EXPECT_FALSE(bad.addSentence({"<s>"}).ok());
  EXPECT_FALSE(bad.addSentence({""}).ok());
  EXPECT_EQ(bad.sentences(), 0u);
}

TEST(DomainLm, PocketsphinxReadsTheSameProbabilities) {
  const TrigramEstimator e = threeCommands();
  auto arpa = e.arpa();
  ASSERT_TRUE(arpa.ok());
  const std::string path = ::testing::TempDir() + "/domain_" + std::to_string(::getpid()) + ".arpa";
  {
    std::ofstream f(path);
    f << *arpa;
  }
  logmath_t* lmath = logmath_init(1.0001, 0, 0);
  ngram_model_t* lm = ngram_model_read(nullptr, path.c_str(), NGRAM_ARPA, lmath);
  ASSERT_NE(lm, nullptr) << "pocketsphinx refused the file";
  struct Case {
    const char* w;
    std::vector<const char*> h;  // most recent first, as ngram_prob takes them
    double p;
  };
  for (const Case& c : std::vector<Case>{{"up", {}, 3.0 / 16},
                                         {"up", {"turn"}, 0.275},
                                         {"down", {"turn"}, 0.05},
                                         {"up", {"turn", "<s>"}, 0.31},
                                         {"down", {"turn", "<s>"}, 0.02},
                                         {"down", {"it", "turn"}, 0.40625},
                                         {"</s>", {"down", "it"}, e.probability("</s>", {"it", "down"})}}) {
    std::vector<const char*> words = {c.w};
    words.insert(words.end(), c.h.begin(), c.h.end());
    const int32 score = ngram_prob(lm, words.data(), static_cast<int32>(words.size()));
    const double got = logmath_exp(lmath, score);
    // pocketsphinx quantizes the file's values: a relative error of a few parts in a thousand.
    EXPECT_NEAR(got / c.p, 1.0, 5e-3) << c.w << " after " << c.h.size() << " words: " << got << " vs " << c.p;
  }
  ngram_model_free(lm);
  logmath_free(lmath);
  std::remove(path.c_str());
}

// Pruning: bigrams and trigrams seen once leave the file, their contexts' back-off weights are recomputed so that every
// conditional distribution pocketsphinx reads still sums to one, and a kept trigram keeps its probability.
TEST(DomainLm, PrunedTrigramsStillNormalize) {
  const TrigramEstimator e = threeCommands();
  auto arpa = e.arpa(2);
  ASSERT_TRUE(arpa.ok());
  // Seen at least twice: the bigrams "<s> turn", "turn it" and "up </s>"; the trigram "<s> turn it".
  EXPECT_NE(arpa->find("ngram 2=3\n"), std::string::npos) << *arpa;
  EXPECT_NE(arpa->find("ngram 3=1\n"), std::string::npos) << *arpa;
  const std::string path = ::testing::TempDir() + "/pruned_" + std::to_string(::getpid()) + ".arpa";
  {
    std::ofstream f(path);
    f << *arpa;
  }
  logmath_t* lmath = logmath_init(1.0001, 0, 0);
  ngram_model_t* lm = ngram_model_read(nullptr, path.c_str(), NGRAM_ARPA, lmath);
  ASSERT_NE(lm, nullptr) << "pocketsphinx refused the file";
  auto prob = [&](const char* w, const char* h1, const char* h2) {
    const char* words[] = {w, h1, h2};
    return logmath_exp(lmath, ngram_prob(lm, words, 3));
  };
  const std::vector<std::vector<const char*>> contexts = {{"turn", "<s>"}, {"it", "turn"}, {"up", "turn"},
                                                         {"down", "it"}};
  for (const auto& h : contexts) {
    double sum = 0;
    for (const char* w : {"turn", "it", "up", "down", "</s>"}) sum += prob(w, h[0], h[1]);
    EXPECT_NEAR(sum, 1.0, 1e-2) << "after " << h[1] << " " << h[0];
  }
  EXPECT_NEAR(prob("it", "turn", "<s>") / e.probability("it", {"<s>", "turn"}), 1.0, 5e-3);
  // Unpruned, all seven trigrams are written.
  EXPECT_NE(e.arpa(1)->find("ngram 3=7\n"), std::string::npos);
  ngram_model_free(lm);
  logmath_free(lmath);
  std::remove(path.c_str());
}

}  // namespace
