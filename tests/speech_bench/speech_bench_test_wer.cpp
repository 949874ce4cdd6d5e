// SPDX-License-Identifier: MIT
// Word error rate of bench/speech: normalization and the edit counts of the word alignment.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/speech/wer.h"

namespace sotto::bench {
namespace {

using Words = std::vector<std::string>;

TEST(Normalize, LowercasesAndSplitsOnPunctuationKeepingApostrophes) {
  EXPECT_EQ(normalizeWords("What's the  TIME, please?"), (Words{"what's", "the", "time", "please"}));
  EXPECT_EQ(normalizeWords("set a timer for 5 minutes."), (Words{"set", "a", "timer", "for", "5", "minutes"}));
  EXPECT_EQ(normalizeWords("  'quoted'  words-here "), (Words{"quoted", "words", "here"}));
  EXPECT_TRUE(normalizeWords("").empty());
  EXPECT_TRUE(normalizeWords(" ,.' ").empty());
}

TEST(WordErrors, IdenticalIsZero) {
  const WordErrors e = wordErrors("set a timer for five minutes", "Set a timer for five minutes.");
  EXPECT_EQ(e.errors(), 0u);
  EXPECT_EQ(e.referenceWords, 6u);
  EXPECT_DOUBLE_EQ(e.rate(), 0.0);
}

TEST(WordErrors, CountsEachKindOfEdit) {
  // The example: "set a timer for five minutes" heard as "sent an iphone five minutes".
  WordErrors e = wordErrors("set a timer for five minutes", "sent an iphone five minutes");
  EXPECT_EQ(e.substitutions, 3u);
  EXPECT_EQ(e.deletions, 1u);
  EXPECT_EQ(e.insertions, 0u);
  EXPECT_DOUBLE_EQ(e.rate(), 4.0 / 6.0);

  e = wordErrors("turn it up", "turn it up please now");
  EXPECT_EQ(e.insertions, 2u);
  EXPECT_EQ(e.substitutions + e.deletions, 0u);

  e = wordErrors("what is the weather tomorrow", "weather tomorrow");
  EXPECT_EQ(e.deletions, 3u);
  EXPECT_EQ(e.substitutions + e.insertions, 0u);
}

TEST(WordErrors, PrefersSubstitutionOverDeletionPlusInsertion) {
  const WordErrors e = wordErrors("a b c", "a x c");
  EXPECT_EQ(e.substitutions, 1u);
  EXPECT_EQ(e.deletions + e.insertions, 0u);
}

TEST(WordErrors, EmptySides) {
  WordErrors e = wordErrors("stop the music", "");
  EXPECT_EQ(e.deletions, 3u);
  EXPECT_DOUBLE_EQ(e.rate(), 1.0);
  e = wordErrors("", "");
  EXPECT_DOUBLE_EQ(e.rate(), 0.0);
  e = wordErrors("", "noise words");
  EXPECT_EQ(e.insertions, 2u);
  EXPECT_DOUBLE_EQ(e.rate(), 2.0);  // no reference words: one per inserted word
}

TEST(WordErrors, WerCanExceedOneAndAccumulates) {
  WordErrors total = wordErrors("yes", "no no no");
  EXPECT_EQ(total.errors(), 3u);
  EXPECT_DOUBLE_EQ(total.rate(), 3.0);
  total += wordErrors("volume up", "volume up");
  EXPECT_EQ(total.referenceWords, 3u);
  EXPECT_DOUBLE_EQ(total.rate(), 1.0);
}

TEST(WordErrors, MinimumEditDistanceOnAHarderAlignment) {
  // ref: the quick brown fox jumps; hyp: quick brown box jumps high -> del "the", sub fox->box, ins "high".
  const WordErrors e = wordErrors("the quick brown fox jumps", "quick brown box jumps high");
  EXPECT_EQ(e.errors(), 3u);
  EXPECT_EQ(e.deletions, 1u);
  EXPECT_EQ(e.substitutions, 1u);
  EXPECT_EQ(e.insertions, 1u);
}

}  // namespace
}  // namespace sotto::bench
