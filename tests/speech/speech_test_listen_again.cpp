// SPDX-License-Identifier: MIT
// Asking again: after listenAgain() (the brain said "Sorry, could you say that again?") the speech stage hears
// one request without the wake word; without it, the same audio is not heard at all.
#include <gtest/gtest.h>

#include <string>

#include "engine/intents/catalogue.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/speech_stage.h"
#include "sotto/hal/audio.h"
#include "tests/speech/listener_fixture.h"
#include "tests/speech/speech_fixtures.h"

namespace sotto::test {
namespace {

// Runs the stages in lockstep over `wav` (no playback device); asks to listen again first when `again`. Returns
// the counters; the transcript, if any, in `text`.
speech::SpeechCounters runListenAgain(const std::string& wav, bool again, std::string& text) {
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
  if (again) s.listenAgain();
  EXPECT_TRUE(a.start().ok());
  while (a.cycle() != speech::CycleResult::ended) s.step(a.captureRing());
  s.step(a.captureRing());
  a.stopDevices();
  speech::TranscriptMessage m;
  text.clear();
  if (s.transcripts().tryReceive(m)) text.assign(m.textView());
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

}  // namespace
}  // namespace sotto::test
