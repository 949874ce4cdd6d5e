// SPDX-License-Identifier: MIT
// The TTS engines: every flite voice speaks, rate and volume act, unknown names are clear errors, cancellation.
#include <gtest/gtest.h>

#include "tests/tts/tts_fixtures.h"

namespace sotto::test {
namespace {

constexpr const char* kSentence = "The quick brown fox jumps over the lazy dog.";

class FliteVoice : public ::testing::TestWithParam<const char*> {};

TEST_P(FliteVoice, SpeaksNonSilentAudioOfPlausibleLength) {
  auto tts = flite(GetParam());
  ASSERT_NE(tts, nullptr);
  EXPECT_EQ(tts->engine(), "flite");
  EXPECT_EQ(tts->voice(), GetParam());
  EXPECT_TRUE(tts->rateHz() == 8000 || tts->rateHz() == 16000) << tts->rateHz();
  Collector c;
  pipeline::CancelToken cancel;
  ASSERT_TRUE(tts->synthesize(kSentence, c, cancel).ok());
  const double seconds = double(c.samples.size()) / tts->rateHz();
  // Nine words at a normal pace: about 2-3 s with flite's pauses at both ends.
  EXPECT_GT(seconds, 1.5);
  EXPECT_LT(seconds, 5.0);
  EXPECT_GT(rmsDbfs(c.samples), -35.0);
  EXPECT_GT(peak(c.samples), 3000);
  // Streamed, not handed over whole: many chunks, none larger than the interface's limit.
  EXPECT_GT(c.chunks, 10u);
  EXPECT_LE(c.maxChunk, speech::TtsEngine::kMaxChunkFrames);
}

INSTANTIATE_TEST_SUITE_P(All, FliteVoice, ::testing::Values("slt", "kal", "awb", "rms"),
                         [](const auto& p) { return std::string(p.param); });

TEST(Tts, FullVoiceNamesAndTheDefault) {
  auto full = flite("cmu_us_kal");
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->voice(), "kal");
  auto def = flite("");
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->voice(), "slt");
}

TEST(Tts, UnknownVoiceListsTheAvailableOnes) {
  speech::TtsOptions o;
  o.voice = "hal9000";
  auto r = speech::createTts(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::not_found);
  EXPECT_NE(r.error().message.find("hal9000"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("slt, kal, awb, rms"), std::string::npos) << r.error().message;
}

TEST(Tts, UnknownEngineAndBadOptionsAreErrors) {
  speech::TtsOptions o;
  o.engine = "festival";
  auto r = speech::createTts(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("flite"), std::string::npos) << r.error().message;
  o = {};
  o.ratePercent = 20;
  EXPECT_FALSE(speech::createTts(o).ok());
  o = {};
  o.volumePercent = 1000;
  EXPECT_FALSE(speech::createTts(o).ok());
}

TEST(Tts, RateAndVolume) {
  pipeline::CancelToken cancel;
  Collector normal, fast, quiet;
  ASSERT_TRUE(flite("slt")->synthesize(kSentence, normal, cancel).ok());
  ASSERT_TRUE(flite("slt", 200)->synthesize(kSentence, fast, cancel).ok());
  ASSERT_TRUE(flite("slt", 100, 50)->synthesize(kSentence, quiet, cancel).ok());
  EXPECT_LT(fast.samples.size(), normal.samples.size() * 7 / 10);
  EXPECT_GT(fast.samples.size(), normal.samples.size() * 3 / 10);
  // Same length, half the amplitude: -6 dB (flite's excitation has a little randomness, hence the tolerance).
  EXPECT_NEAR(double(quiet.samples.size()), double(normal.samples.size()), normal.samples.size() * 0.01);
  EXPECT_NEAR(rmsDbfs(quiet.samples), rmsDbfs(normal.samples) - 6.02, 0.5);
}

TEST(Tts, CancelStopsWithinOneChunk) {
  auto tts = flite("slt");
  ASSERT_NE(tts, nullptr);
  pipeline::CancelToken cancel;
  Collector c;
  c.token = &cancel;
  c.cancelAt = 3;
  ASSERT_TRUE(tts->synthesize("This sentence is long enough to need many chunks of audio before it ends.", c, cancel)
                  .ok());
  EXPECT_EQ(c.chunks, 3u);  // nothing after the chunk during which the token was cancelled
  // Already cancelled: nothing at all. Reset: speaks again.
  Collector none;
  ASSERT_TRUE(tts->synthesize("Hello.", none, cancel).ok());
  EXPECT_EQ(none.chunks, 0u);
  cancel.reset();
  Collector again;
  ASSERT_TRUE(tts->synthesize("Hello.", again, cancel).ok());
  EXPECT_GT(again.chunks, 0u);
}

TEST(Tts, RefusesEmbeddedNul) {
  auto tts = flite("slt");
  ASSERT_NE(tts, nullptr);
  Collector c;
  pipeline::CancelToken cancel;
  EXPECT_FALSE(tts->synthesize(std::string_view("a\0b", 3), c, cancel).ok());
}

}  // namespace
}  // namespace sotto::test

#ifdef SOTTO_HAVE_ESPEAK
namespace sotto::test {
namespace {

std::unique_ptr<speech::TtsEngine> espeak(const std::string& voice, std::string* error = nullptr,
                                          const std::string& dataDir = "") {
  speech::TtsOptions o;
  o.engine = "espeak-ng";
  o.voice = voice;
  o.espeakDataDir = dataDir;
  auto e = speech::createTts(o);
  if (!e.ok()) {
    if (error != nullptr) *error = e.error().message;
    return nullptr;
  }
  return std::move(e).value();
}

TEST(Espeak, MissingDataIsAClearError) {
  std::string error;
  EXPECT_EQ(espeak("en-us", &error, "/nonexistent/espeak-ng-data"), nullptr);
  EXPECT_NE(error.find("/nonexistent/espeak-ng-data"), std::string::npos) << error;
}

TEST(Espeak, VoicesSpeakAndUnknownOnesAreListed) {
  for (const char* voice : {"en-us", "en", "de"}) {
    auto tts = espeak(voice);
    ASSERT_NE(tts, nullptr) << voice << " (is espeak-ng-data installed?)";
    EXPECT_EQ(tts->engine(), "espeak-ng");
    Collector c;
    pipeline::CancelToken cancel;
    ASSERT_TRUE(tts->synthesize(kSentence, c, cancel).ok());
    const double seconds = double(c.samples.size()) / tts->rateHz();
    EXPECT_GT(seconds, 1.5) << voice;
    EXPECT_LT(seconds, 5.0) << voice;
    EXPECT_GT(rmsDbfs(c.samples), -35.0) << voice;
    EXPECT_LE(c.maxChunk, speech::TtsEngine::kMaxChunkFrames);
  }
  std::string error;
  EXPECT_EQ(espeak("klingon", &error), nullptr);
  EXPECT_NE(error.find("en-us"), std::string::npos) << error;
  const auto voices = speech::ttsVoices("espeak-ng");
  EXPECT_NE(std::find(voices.begin(), voices.end(), "en-us"), voices.end());
}

TEST(Espeak, CancelStopsWithinOneChunk) {
  auto tts = espeak("en-us");
  ASSERT_NE(tts, nullptr);
  pipeline::CancelToken cancel;
  Collector c;
  c.token = &cancel;
  c.cancelAt = 2;
  ASSERT_TRUE(tts->synthesize("This sentence is long enough to need many chunks of audio before it ends.", c, cancel)
                  .ok());
  EXPECT_EQ(c.chunks, 2u);
}

}  // namespace
}  // namespace sotto::test
#endif
