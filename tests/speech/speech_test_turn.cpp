// SPDX-License-Identifier: MIT
// Semantic endpointing's rules: which transcripts are a whole command (the turn may end after a short silence) and
// which are unfinished or open (the long silence stands), read by the catalogue's phrasings and the committed model.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"
#include "engine/speech/turn.h"
#include "tests/support/alloc_counter.h"

namespace {

using sotto::speech::TurnReading;
using sotto::speech::TurnState;
using sotto::speech::unfinishedTail;

TEST(UnfinishedTail, TrailingConnectivesAndPrepositions) {
  for (const char* text : {"turn the volume up and", "set the volume to", "set a timer for", "wake me up at",
                           "what is five plus", "set a timer for ten minutes called", "turn the volume up and the",
                           "set a timer for ten minutes um", "Set The Volume TO"}) {
    EXPECT_EQ(unfinishedTail(text), "ends in a connective or preposition") << text;
  }
}

TEST(UnfinishedTail, NumbersStillBeingSpoken) {
  for (const char* text : {"set a timer for twenty", "set the volume to forty", "set a timer for two hundred",
                           "what is two point", "set a timer for 20", "wake me at seven oh"}) {
    EXPECT_EQ(unfinishedTail(text), "a number still being spoken") << text;
  }
  for (const char* text : {"wake me at seven", "set an alarm for six", "set an alarm until twelve"}) {
    EXPECT_EQ(unfinishedTail(text), "an hour whose minutes may follow") << text;
  }
}

TEST(UnfinishedTail, WholeEndings) {
  for (const char* text : {"set a timer for ten minutes", "set the volume to five", "set the volume to 5",
                           "turn it up", "cancel that", "stop", "stop please", "what time is it",
                           "set a timer for twenty five minutes", "wake me at seven thirty", "set the volume to seven",
                           "", "   ", "seven"}) {
    EXPECT_EQ(unfinishedTail(text), "") << text;
  }
}

// The detector over the shipped understanding: the catalogue's phrasings and config/intents.nlu.
class TurnRules : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string cataloguePath = std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml";
    auto cat = sotto::intents::Catalogue::loadFile(cataloguePath);
    ASSERT_TRUE(cat.ok());
    matcher_ = std::make_unique<sotto::intents::Matcher>(std::move(cat).value());
    auto model = sotto::nlu::NluModel::loadFile(sotto::nlu::modelPathFor(cataloguePath));
    ASSERT_TRUE(model.ok()) << model.error().message;
    model_ = std::move(model).value();
    auto u = sotto::nlu::Understander::create(*matcher_, model_.get());
    ASSERT_TRUE(u.ok());
    understander_ = std::make_unique<sotto::nlu::Understander>(std::move(u).value());
    auto d = sotto::speech::UnderstandingTurnDetector::create(*understander_, 0.9f);
    ASSERT_TRUE(d.ok());
    detector_ = std::move(d).value();
  }
  TurnReading read(std::string_view text) { return detector_->read(text); }

  std::unique_ptr<sotto::intents::Matcher> matcher_;
  std::unique_ptr<sotto::nlu::NluModel> model_;
  std::unique_ptr<sotto::nlu::Understander> understander_;
  std::unique_ptr<sotto::speech::UnderstandingTurnDetector> detector_;
};

TEST_F(TurnRules, ConfidentCommandsWithEveryRequiredSlotAreComplete) {
  for (const char* text : {"set a timer for ten minutes", "set a timer for twenty five minutes", "turn the volume up",
                           "set the volume to five", "what time is it", "stop", "cancel the timer",
                           "wake me up at seven thirty", "go offline", "what is the weather"}) {
    const TurnReading r = read(text);
    EXPECT_EQ(r.state, TurnState::complete) << text << ": " << r.why;
    EXPECT_GE(r.intent, 0) << text;
    EXPECT_GE(r.confidence, 0.9f) << text;
  }
}

TEST_F(TurnRules, OneWordCommandsMayGoOn) {
  for (const char* text : {"stop", "louder", " pause "}) {
    const TurnReading r = read(text);
    if (r.state != TurnState::complete) continue;  // not a command this catalogue holds whole
    EXPECT_TRUE(r.mayGoOn) << text;
  }
  EXPECT_EQ(read("stop").state, TurnState::complete);
  for (const char* text : {"stop the timer", "set a timer for ten minutes", "turn the volume up"}) {
    const TurnReading r = read(text);
    EXPECT_EQ(r.state, TurnState::complete) << text;
    EXPECT_FALSE(r.mayGoOn) << text;
  }
}

TEST_F(TurnRules, UnfinishedCommandsKeepTheLongSilence) {
  // Each unfinished form: a number still being spoken, a trailing "and" / "to" / "for", a required slot missing,
  // an hour whose minutes may follow.
  for (const char* text : {"set a timer for twenty", "set a timer for two hundred", "turn the volume up and",
                           "set the volume to", "set a timer for", "set a timer", "set an alarm", "wake me up at seven",
                           "set the volume to forty", "set a timer for ten minutes and"}) {
    const TurnReading r = read(text);
    EXPECT_EQ(r.state, TurnState::unfinished) << text << ": " << r.why;
  }
}

TEST_F(TurnRules, NoiseAndQuestionsStillBeingAskedKeepTheLongSilence) {
  for (const char* text : {"", "the of and", "what is the capital of", "how much", "tell me something",
                           "why do you", "tell me a story about", "what is the", "is it very", "how far is it",
                           "can you tell me", "the moon is big", "explain how"}) {
    const TurnReading r = read(text);
    EXPECT_NE(r.state, TurnState::complete) << text << ": " << r.why;
  }
}

TEST_F(TurnRules, WholeQuestionsEndTheirTurnLikeCommands) {
  // Questions no intent answers, said whole: the cache's, the local model's or the cloud's.
  const char* whole[] = {"what is the capital of france", "tell me a story about a dragon", "why is the sky blue",
                         "who wrote the odyssey", "how do volcanoes form", "explain how a rainbow forms",
                         "is a tomato a fruit", "can dogs eat grapes", "which planet has the most moons",
                         "describe the water cycle", "where do penguins live", "how'd the romans build roads",
                         "where'd the dinosaurs go", "why did the dinosaurs die out", "how do planes take off"};
  for (const char* text : whole) {
    const TurnReading r = read(text);
    EXPECT_EQ(r.state, TurnState::complete) << text << ": " << r.why;
    EXPECT_EQ(r.why, "a whole question") << text;
    EXPECT_TRUE(sotto::speech::wholeQuestion(text)) << text;
  }
  // With questions left out (speech.semantic-endpoint-questions false), the same stay open; commands do not.
  auto d = sotto::speech::UnderstandingTurnDetector::create(*understander_, 0.9f, false);
  ASSERT_TRUE(d.ok());
  for (const char* text : whole) EXPECT_EQ(d.value()->read(text).state, TurnState::open) << text;
  EXPECT_EQ(d.value()->read("set a timer for ten minutes").state, TurnState::complete);
  // Not a question: a statement, a greeting, two words; a request whose object is still to come.
  for (const char* text : {"the moon is big", "hello there computer", "who wrote hamlet", "what could capital",
                           "my name is sam", "can you work out", "could you look up", "would you find out"}) {
    EXPECT_FALSE(sotto::speech::wholeQuestion(text)) << text;
  }
}

TEST_F(TurnRules, AnUnsureCommandIsNotComplete) {
  // A detector whose least confidence is just above a command's own: the same command is no longer whole.
  int checked = 0;
  for (const char* text : {"set a timer for ten minutes", "turn the volume up", "could you make it a bit louder",
                           "i want a ten minute timer", "what is the weather"}) {
    const TurnReading r = read(text);
    if (r.state != TurnState::complete || r.confidence >= 1.0f) continue;
    auto d = sotto::speech::UnderstandingTurnDetector::create(*understander_, std::min(1.0f, r.confidence + 1e-4f));
    ASSERT_TRUE(d.ok());
    const TurnReading unsure = d.value()->read(text);
    EXPECT_EQ(unsure.state, TurnState::open) << text << ": " << unsure.why;
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no complete command below confidence 1 to check";
  EXPECT_FALSE(sotto::speech::UnderstandingTurnDetector::create(*understander_, 1.5f).ok());
}

TEST_F(TurnRules, ReadingDoesNotAllocate) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  read("set a timer for ten minutes");  // warm: nothing lazily built on first use
  const sotto::test::NoAllocScope scope;
  for (const char* text : {"set a timer for ten minutes", "turn the volume up and", "what is the capital of france",
                           "set a timer for twenty"}) {
    read(text);
  }
  EXPECT_EQ(scope.allocations(), 0u);
}

}  // namespace
