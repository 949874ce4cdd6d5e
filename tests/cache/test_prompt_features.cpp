// SPDX-License-Identifier: MIT
// Canonical prompt text (number and clock-time equivalences) and the semantic guards' features.
#include <gtest/gtest.h>

#include <memory>

#include "engine/cache/answer_cache.h"
#include "engine/cache/prompt_features.h"

namespace sotto::cache {
namespace {

std::string canon(std::string_view s) { return AnswerCache::canonicalText(s); }

std::unique_ptr<PromptFeatures> features(std::string_view s) {
  auto f = std::make_unique<PromptFeatures>();
  analyzePrompt(s, *f);
  return f;
}

Guard guard(std::string_view a, std::string_view b, std::uint64_t sa = 0, std::uint64_t sb = 0) {
  return checkGuards(*features(a), sa, *features(b), sb);
}

TEST(CanonicalText, LowercasePunctuationAndSpaces) {
  EXPECT_EQ(canon("What is the CAPITAL of France?"), "what is the capital of france");
  EXPECT_EQ(canon("  what   is the capital,  of france  "), "what is the capital of france");
  EXPECT_EQ(canon("What's the capital of France!!!"), canon("what is the capital of france"));
  EXPECT_EQ(canon(""), "");
  EXPECT_EQ(canon("?!."), "");
}

TEST(CanonicalText, ClockTimesAgree) {
  const std::string want = "remind me at 17:00";
  EXPECT_EQ(canon("remind me at five pm"), want);
  EXPECT_EQ(canon("remind me at 5 pm"), want);
  EXPECT_EQ(canon("remind me at 5pm"), want);
  EXPECT_EQ(canon("Remind me at 5 p.m."), want);
  EXPECT_EQ(canon("remind me at 17:00"), want);
  EXPECT_EQ(canon("remind me at 5:00 pm"), want);
  EXPECT_EQ(canon("remind me at five o'clock in the afternoon"), want);
  EXPECT_NE(canon("remind me at five am"), want);
  EXPECT_EQ(canon("remind me at five am"), "remind me at 05:00");
  EXPECT_EQ(canon("what is on at noon"), "what is on at 12:00");
}

TEST(CanonicalText, NumbersAgree) {
  EXPECT_EQ(canon("what is twenty five times four"), "what is 25 times 4");
  EXPECT_EQ(canon("what is 25 times 4"), "what is 25 times 4");
  EXPECT_EQ(canon("how far is one hundred and five miles"), canon("how far is 105 miles"));
  EXPECT_EQ(canon("what is 2.5 squared"), "what is 2.5 squared");
  // A bare number is a number, not a time; "won" stays a word.
  EXPECT_EQ(canon("is five a prime"), "is 5 a prime");
  EXPECT_EQ(canon("who won the world cup"), "who won the world cup");
}

TEST(CanonicalText, TooLongIsNotCacheable) {
  std::string s;
  for (int i = 0; i < 60; ++i) s += "word ";
  EXPECT_FALSE(features(s)->cacheable);
  EXPECT_TRUE(features("how are you")->cacheable);
}

TEST(Features, Negation) {
  EXPECT_EQ(features("is it safe to swim")->negations, 0);
  EXPECT_EQ(features("is it not safe to swim")->negations, 1);
  EXPECT_EQ(features("isn't it safe to swim")->negations, 1);
  EXPECT_EQ(guard("is it safe to swim", "is it not safe to swim"), Guard::negation);
  EXPECT_EQ(guard("is it safe to swim", "isn't it safe to swim"), Guard::negation);
  EXPECT_EQ(guard("is it not safe to swim", "isn't it safe to swim"), Guard::none);
}

TEST(Features, Numbers) {
  EXPECT_EQ(guard("what is 25 times 4", "what is 25 times 5"), Guard::numbers);
  EXPECT_EQ(guard("what is twenty five times four", "what is 25 times 4"), Guard::none);
  EXPECT_EQ(guard("what is 25 times 4", "what is 4 times 25"), Guard::numbers);  // order is meaning
  EXPECT_EQ(guard("weather at 5 pm", "weather at 6 pm"), Guard::numbers);
  EXPECT_EQ(guard("weather at five pm", "weather at 17:00"), Guard::none);
  EXPECT_EQ(guard("how tall is a giraffe", "how tall are 2 giraffes"), Guard::numbers);
}

TEST(Features, WrittenEntities) {
  // Capitalized words in written text; the sentence-initial common word is not one.
  const auto f = features("What is the capital of France?");
  EXPECT_EQ(f->entityCount, 1);
  EXPECT_EQ(guard("What is the capital of France?", "What is the capital of Germany?"), Guard::entities);
  EXPECT_EQ(guard("Who wrote Hamlet?", "Who wrote Macbeth?"), Guard::entities);
  EXPECT_EQ(guard("Who wrote Hamlet?", "who wrote hamlet"), Guard::none);
  EXPECT_EQ(guard("Paris weather tomorrow", "London weather tomorrow"), Guard::entities);
  EXPECT_EQ(guard("What's the capital of France?", "Tell me the capital of France."), Guard::none);
}

TEST(Features, TranscriptEntities) {
  // Lowercase transcripts: words outside the common-word list.
  EXPECT_EQ(guard("what is the capital of france", "what is the capital of germany"), Guard::entities);
  EXPECT_EQ(guard("how old is the eiffel tower", "how old is the leaning tower"), Guard::entities);
  EXPECT_EQ(guard("what is the weather like today", "how is the weather today"), Guard::none);
  // Written and spoken forms of one question agree.
  EXPECT_EQ(guard("What is the capital of France?", "whats the capital of france"), Guard::none);
}

TEST(ContentWords, StemsFoldPluralsAndVerbEndings) {
  auto stem = [](std::string_view w) {
    char buf[64];
    return std::string(contentWordStem(w, buf));
  };
  EXPECT_EQ(stem("cities"), "city");
  EXPECT_EQ(stem("timers"), stem("timer"));
  EXPECT_EQ(stem("legs"), "leg");
  EXPECT_EQ(stem("glasses"), "glass");
  EXPECT_EQ(stem("glass"), "glass");
  EXPECT_EQ(stem("virus"), "virus");
  EXPECT_EQ(stem("baking"), stem("bake"));
  EXPECT_EQ(stem("baked"), stem("bake"));
  EXPECT_EQ(stem("running"), "run");
  EXPECT_EQ(stem("falling"), "fall");
  EXPECT_NE(stem("timer"), stem("time"));  // a timer is not the time
  EXPECT_TRUE(isStopWord("tell"));
  EXPECT_TRUE(isStopWord("wondering"));
  EXPECT_FALSE(isStopWord("timer"));
  EXPECT_FALSE(isStopWord("cancel"));
  EXPECT_FALSE(isStopWord("off"));
  EXPECT_FALSE(isStopWord("when"));
}

TEST(ContentWords, GuardRefusesAnotherRequestOfCommonWords) {
  // Nothing here is an entity or a number: only the content words tell these requests apart.
  EXPECT_EQ(guard("cancel the timer", "can i cancel the order"), Guard::content);
  EXPECT_EQ(guard("can sell the timer", "what is the best time to sleep"), Guard::content);
  EXPECT_EQ(guard("what is the weather", "what is the weather tomorrow"), Guard::content);
  EXPECT_EQ(guard("is the kitchen light on", "is the kitchen light off"), Guard::content);
  EXPECT_EQ(guard("when was the house built", "where was the house built"), Guard::content);
  EXPECT_EQ(guard("what time is it", "how are you"), Guard::content);  // one side has none
  // Only the content guard refuses them: it can be turned off to measure what it prevents.
  EXPECT_EQ(checkGuards(*features("cancel the timer"), 0, *features("can i cancel the order"), 0, false),
            Guard::none);
}

TEST(ContentWords, GuardLetsParaphrasesThrough) {
  EXPECT_EQ(guard("how many legs does a spider have", "tell me how many legs spiders have"), Guard::none);
  EXPECT_EQ(guard("how do i bake bread", "quick question, how should i be baking bread"), Guard::none);
  EXPECT_EQ(guard("cancel the timer", "cancel my timers please"), Guard::none);
  EXPECT_EQ(guard("what is the time", "do you know what time it is"), Guard::none);
  EXPECT_EQ(guard("how are you", "how are you doing"), Guard::none);  // both empty: nothing to compare
  // Four content words or more may differ in one word in four.
  EXPECT_EQ(guard("how do i keep my house warm in winter", "how do i keep my home warm in winter"), Guard::none);
  EXPECT_EQ(guard("how do i make my house warm", "how do i keep my house cool"), Guard::content);
}

TEST(Features, Slots) {
  EXPECT_EQ(guard("set a timer", "set a timer", 11, 12), Guard::slots);
  EXPECT_EQ(guard("set a timer", "set a timer", 11, 11), Guard::none);
  EXPECT_EQ(guard("set a timer", "set a timer", 0, 11), Guard::slots);
}

}  // namespace
}  // namespace sotto::cache
