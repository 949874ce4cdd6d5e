// SPDX-License-Identifier: MIT
// Asking again: after listenAgain() (the brain said "Sorry, could you say that again?") the speech stage hears
// one request without the wake word; without it, the same audio is not heard at all. The follow-up window after an
// answer reuses the same wait.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/speech_stage.h"
#include "sotto/hal/audio.h"
#include "tests/speech/listener_fixture.h"
#include "tests/speech/speech_fixtures.h"

namespace sotto::test {
namespace {

// Runs the stages in lockstep over `wav` (no playback device); asks to listen again first when `again`; opens a
// follow-up window of followUpMs after each answer (0: none). Returns the counters; the transcripts in `texts`
// (the last one also in `text`), and which of them came without the wake word in `withoutWake`.
speech::SpeechCounters runListenAgain(const std::string& wav, bool again, std::string& text, uint32_t followUpMs = 0,
                                      std::vector<std::string>* texts = nullptr,
                                      std::vector<bool>* withoutWake = nullptr) {
  auto src = hal::AudioRegistry::instance().openSource(hal::AudioSpec{"wav", wav + "?fast", 16000, 10, 4});
  EXPECT_TRUE(src.ok());
  if (!src.ok()) return {};
  auto audio = speech::AudioStage::create(std::move(src).value(), nullptr, 1u << 16, 1u << 10);
  auto meter = speech::InputMeter::create(1600, 160);
  auto listener = commandListener();
  EXPECT_TRUE(audio.ok() && meter.ok() && listener);
  if (!audio.ok() || !meter.ok() || !listener) return {};
  auto& a = **audio;
  auto stage = speech::SpeechStage::create(std::move(meter).value(), std::move(listener), &a, nullptr, 16000, 4);
  EXPECT_TRUE(stage.ok());
  if (!stage.ok()) return {};
  auto& s = **stage;
  s.setFollowUpWindow(followUpMs);
  if (again) s.listenAgain();
  EXPECT_TRUE(a.start().ok());
  speech::TranscriptMessage m;
  text.clear();
  auto drain = [&] {
    while (s.transcripts().tryReceive(m)) {
      text.assign(m.textView());
      if (texts != nullptr) texts->push_back(text);
      if (withoutWake != nullptr) withoutWake->push_back(m.withoutWake != 0);
    }
  };
  while (a.cycle() != speech::CycleResult::ended) {
    s.step(a.captureRing());
    drain();
  }
  s.step(a.captureRing());
  drain();
  a.stopDevices();
  return s.counters();
}

TEST(ListenAgain, HearsOneRequestWithoutTheWakeWord) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // Nothing plays: the stage waits 3 s of audio for the question to be said, then listens.
  ASSERT_TRUE(silence(3.5, dir.file("wait.wav")));
  ASSERT_TRUE(silence(0.8, dir.file("tail.wav")));
  ASSERT_TRUE(say("set a timer for five minutes", dir.file("req.wav")));
  ASSERT_TRUE(concat({dir.file("wait.wav"), dir.file("req.wav"), dir.file("tail.wav")}, dir.file("mic.wav")));
  std::string text;
  speech::SpeechCounters c = runListenAgain(dir.file("mic.wav"), true, text);
  EXPECT_EQ(c.wakes, 0u);
  EXPECT_EQ(c.finals, 1u);
  EXPECT_TRUE(hasWord(text, "timer") && hasWord(text, "minutes")) << text;
  // The same audio without the request to listen again: no wake word, nothing heard.
  c = runListenAgain(dir.file("mic.wav"), false, text);
  EXPECT_EQ(c.finals, 0u) << text;
}

// Asked again, many say the wake word again first ("hey computer ... set a timer"): that is a wake, and the request
// after it is heard whole, not "hey computer" taken for the answer and the command lost.
TEST(ListenAgain, TheWakeWordSaidAgainIsAWake) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(silence(3.5, dir.file("wait.wav")));
  ASSERT_TRUE(silence(0.6, dir.file("pause.wav")));
  ASSERT_TRUE(silence(0.8, dir.file("tail.wav")));
  ASSERT_TRUE(say("hey computer", dir.file("wake.wav")));
  ASSERT_TRUE(say("set a timer for five minutes", dir.file("req.wav")));
  ASSERT_TRUE(concat({dir.file("wait.wav"), dir.file("wake.wav"), dir.file("pause.wav"), dir.file("req.wav"),
                      dir.file("tail.wav")},
                     dir.file("mic.wav")));
  std::string text;
  std::vector<std::string> texts;
  std::vector<bool> withoutWake;
  const speech::SpeechCounters c = runListenAgain(dir.file("mic.wav"), true, text, 0, &texts, &withoutWake);
  EXPECT_EQ(c.wakes, 1u);
  ASSERT_EQ(texts.size(), 1u) << text;
  EXPECT_TRUE(hasWord(texts[0], "timer") && hasWord(texts[0], "minutes")) << texts[0];
  EXPECT_EQ(withoutWake, std::vector<bool>{false});
}

// The follow-up: after an answer, a request said without the wake word within speech.follow-up-ms is heard; after
// the window, or with no window, it is not. Nothing plays here, so each window opens 3 s of audio after the final.
class FollowUp : public ::testing::Test {
 protected:
  void SetUp() override {
    SOTTO_REQUIRE_SPEECH_TOOLS();
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(silence(1.0, dir_.file("sil1.wav")));
    ASSERT_TRUE(silence(0.5, dir_.file("sil05.wav")));
    ASSERT_TRUE(silence(0.8, dir_.file("tail.wav")));
    ASSERT_TRUE(say("hey computer", dir_.file("wake.wav")));
    ASSERT_TRUE(say("set a timer for five minutes", dir_.file("first.wav")));
    ASSERT_TRUE(say("what time is it", dir_.file("second.wav")));
  }
  // The wake word and a request, then `pause` seconds of silence, then a second request without the wake word.
  std::string scene(double pause) {
    const std::string gap = dir_.file("gap.wav"), out = dir_.file("mic.wav");
    EXPECT_TRUE(silence(pause, gap));
    EXPECT_TRUE(concat({dir_.file("sil1.wav"), dir_.file("wake.wav"), dir_.file("sil05.wav"), dir_.file("first.wav"),
                        gap, dir_.file("second.wav"), dir_.file("tail.wav")},
                       out));
    return out;
  }
  TempDir dir_;
};

TEST_F(FollowUp, ARequestWithinTheWindowNeedsNoWakeWord) {
  // The window opens 3 s after the first final and lasts 4 s: the second request starts about 4 s after the first.
  const std::string wav = scene(4.0);
  std::string text;
  std::vector<std::string> texts;
  std::vector<bool> withoutWake;
  speech::SpeechCounters c = runListenAgain(wav, false, text, 4000, &texts, &withoutWake);
  EXPECT_EQ(c.wakes, 1u);
  ASSERT_EQ(c.finals, 2u);
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_TRUE(hasWord(texts[0], "timer")) << texts[0];
  EXPECT_TRUE(hasWord(texts[1], "time")) << texts[1];
  EXPECT_EQ(withoutWake, (std::vector<bool>{false, true}));
  EXPECT_EQ(c.withoutWakeFinals, 1u);
  EXPECT_GE(c.followUpWindows, 1u);
  // The same audio with follow-ups off: only the request after the wake word is heard.
  texts.clear();
  c = runListenAgain(wav, false, text, 0, &texts);
  EXPECT_EQ(c.finals, 1u);
  EXPECT_EQ(c.followUpWindows, 0u);
  EXPECT_EQ(texts.size(), 1u);
}

TEST_F(FollowUp, AudioEndingInAnOpenWindowIsNoRequest) {
  // The capture ends (a file's end, a device gone) 1 s into a 4 s window nobody spoke in: no final, else the brain
  // answers an empty request ("Sorry, I can't answer that right now").
  ASSERT_TRUE(silence(4.0, dir_.file("end.wav")));
  ASSERT_TRUE(concat({dir_.file("sil1.wav"), dir_.file("wake.wav"), dir_.file("sil05.wav"), dir_.file("first.wav"),
                      dir_.file("end.wav")},
                     dir_.file("mic.wav")));
  std::string text;
  std::vector<std::string> texts;
  const speech::SpeechCounters c = runListenAgain(dir_.file("mic.wav"), false, text, 4000, &texts);
  EXPECT_EQ(c.followUpWindows, 1u);
  EXPECT_EQ(c.finals, 1u);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_TRUE(hasWord(texts[0], "timer")) << texts[0];
}

TEST_F(FollowUp, TheWindowClosesWhenNobodySpeaks) {
  // A 1 s window opens 3 s after the first final; the second request comes 6 s after it: spotting has resumed.
  const std::string wav = scene(6.0);
  std::string text;
  std::vector<std::string> texts;
  const speech::SpeechCounters c = runListenAgain(wav, false, text, 1000, &texts);
  EXPECT_EQ(c.wakes, 1u);
  EXPECT_EQ(c.finals, 1u) << text;
  EXPECT_EQ(c.followUpWindows, 1u);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_TRUE(hasWord(texts[0], "timer")) << texts[0];
}

}  // namespace
}  // namespace sotto::test
