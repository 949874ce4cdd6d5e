// SPDX-License-Identifier: MIT
// Stable partials for speculative work (speech.speculate): at the pause before the endpoint the speech stage
// publishes the words so far (newest wins) and cancels the speculation in progress; the final cancels it again.
// Without the setting nothing is published. Also the latest-wins slot itself.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/latest_slot.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/speech_stage.h"
#include "sotto/hal/audio.h"
#include "tests/speech/listener_fixture.h"
#include "tests/speech/speech_fixtures.h"

namespace sotto::test {
namespace {

struct SpeculationRun {
  speech::SpeechCounters counters;
  std::vector<std::string> stable;  // the stable partials taken, in order
  std::vector<std::string> finals;
  bool cancelledAtFinal = false;    // the speculation token was cancelled when the final arrived
};

// The stages in lockstep over `wav`; the test plays the brain thread: it takes each stable partial (resetting
// the token as AnswerStage::speculate does) and each final.
SpeculationRun runSpeculation(const std::string& wav, bool listenerReports, bool stageSpeculates) {
  SpeculationRun out;
  auto src = hal::AudioRegistry::instance().openSource(hal::AudioSpec{"wav", wav + "?fast", 16000, 10, 4});
  EXPECT_TRUE(src.ok());
  if (!src.ok()) return out;
  auto audio = speech::AudioStage::create(std::move(src).value(), nullptr, 1u << 16, 1u << 10);
  auto meter = speech::InputMeter::create(1600, 160);
  auto listener = commandListener("", -20, listenerReports);
  EXPECT_TRUE(audio.ok() && meter.ok() && listener);
  if (!audio.ok() || !meter.ok() || !listener) return out;
  auto& a = **audio;
  auto stage = speech::SpeechStage::create(std::move(meter).value(), std::move(listener), &a, nullptr, 16000, 4);
  EXPECT_TRUE(stage.ok());
  if (!stage.ok()) return out;
  auto& s = **stage;
  pipeline::CancelToken speculation;
  if (stageSpeculates) s.setSpeculation(&speculation);
  EXPECT_TRUE(a.start().ok());
  auto drain = [&] {
    speech::TranscriptMessage m;
    if (s.stablePartials().take(m)) {
      out.stable.emplace_back(m.textView());
      EXPECT_EQ(m.sequence, s.counters().finals + 1) << "a stable partial names the final it leads to";
      speculation.reset();
    }
    while (s.transcripts().tryReceive(m)) {
      out.finals.emplace_back(m.textView());
      out.cancelledAtFinal = speculation.cancelled();
    }
  };
  while (a.cycle() != speech::CycleResult::ended) {
    s.step(a.captureRing());
    drain();
  }
  s.step(a.captureRing());
  drain();
  a.stopDevices();
  out.counters = s.counters();
  return out;
}

class StablePartials : public ::testing::Test {
 protected:
  void SetUp() override {
    SOTTO_REQUIRE_SPEECH_TOOLS();
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(silence(1.0, dir_.file("sil1.wav")));
    ASSERT_TRUE(silence(0.5, dir_.file("sil05.wav")));
    ASSERT_TRUE(silence(0.8, dir_.file("tail.wav")));
    ASSERT_TRUE(say("hey computer", dir_.file("wake.wav")));
    ASSERT_TRUE(say("set a timer for five minutes", dir_.file("req.wav")));
    ASSERT_TRUE(concat({dir_.file("sil1.wav"), dir_.file("wake.wav"), dir_.file("sil05.wav"), dir_.file("req.wav"),
                        dir_.file("tail.wav")},
                       dir_.file("mic.wav")));
  }
  TempDir dir_;
};

// No semantic endpointing here (the fixture's listener has no understander): the turn ends after the long
// silence, and the pause of endpoint-complete-ms before it publishes what was said.
TEST_F(StablePartials, ThePauseBeforeTheEndpointPublishesTheWordsAndTheFinalCancels) {
  const SpeculationRun r = runSpeculation(dir_.file("mic.wav"), true, true);
  ASSERT_EQ(r.finals.size(), 1u);
  EXPECT_TRUE(hasWord(r.finals[0], "timer")) << r.finals[0];
  ASSERT_GE(r.stable.size(), 1u);
  EXPECT_EQ(r.counters.stablePartials, r.stable.size()) << "one published per pause, each taken (newest wins)";
  EXPECT_TRUE(hasWord(r.stable.back(), "timer")) << r.stable.back();
  EXPECT_TRUE(r.cancelledAtFinal) << "the final must stop a speculation on the partial";
}

TEST_F(StablePartials, NothingIsPublishedWithoutTheSetting) {
  const SpeculationRun notReported = runSpeculation(dir_.file("mic.wav"), false, true);
  EXPECT_EQ(notReported.finals.size(), 1u);
  EXPECT_TRUE(notReported.stable.empty());
  EXPECT_EQ(notReported.counters.stablePartials, 0u);
  const SpeculationRun notWanted = runSpeculation(dir_.file("mic.wav"), true, false);
  EXPECT_EQ(notWanted.finals.size(), 1u);
  EXPECT_TRUE(notWanted.stable.empty());
  EXPECT_EQ(notWanted.counters.stablePartials, 0u);
}

TEST(LatestSlot, TheNewestValueWinsAndIsTakenOnce) {
  pipeline::LatestSlot<int> slot;
  int v = 0;
  EXPECT_FALSE(slot.pending());
  EXPECT_FALSE(slot.take(v));
  slot.publish(1);
  slot.publish(2);
  EXPECT_TRUE(slot.pending());
  ASSERT_TRUE(slot.take(v));
  EXPECT_EQ(v, 2);
  EXPECT_FALSE(slot.take(v));
  slot.publish(3);
  ASSERT_TRUE(slot.take(v));
  EXPECT_EQ(v, 3);
  // Two threads: the consumer only ever sees increasing values, and sees the last one.
  struct Pair {
    int a = 0, b = 0;  // written together: a torn read would show a != b
  };
  pipeline::LatestSlot<Pair> pairs;
  constexpr int kLast = 200000;
  std::thread producer([&] {
    for (int i = 1; i <= kLast; ++i) pairs.publish(Pair{i, i});
  });
  int seen = 0;
  while (seen != kLast) {
    Pair p;
    if (!pairs.take(p)) continue;
    if (p.a != p.b || p.a <= seen) {
      ADD_FAILURE() << "torn or stale value " << p.a << "/" << p.b << " after " << seen;
      break;
    }
    seen = p.a;
  }
  producer.join();
}

}  // namespace
}  // namespace sotto::test
