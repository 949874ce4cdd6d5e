// SPDX-License-Identifier: MIT
// The wake word network (engine/speech/wake_net): log-mel features, the model file's validation (every corrupted or
// truncated file refused by name), the shipped model on generated voices and on speech that must not wake it, the
// fallback to keyphrase spotting, and no allocation while it listens.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "engine/speech/wake.h"
#include "engine/speech/wake_net.h"
#include "tests/speech/speech_fixtures.h"
#include "tests/support/alloc_counter.h"

namespace sotto::speech {
namespace {

using test::concat;
using test::readMono;
using test::run;
using test::say;
using test::sayEspeak;
using test::silence;
using test::TempDir;

const std::string kShippedModel = std::string(SOTTO_SOURCE_DIR) + "/config/hey-computer.wake";
const char* const kSphinx = "/usr/share/pocketsphinx/model/en-us/";

WakeModel tinyModel() {
  WakeModel m;
  m.phrase = "hey computer";
  m.windowFrames = 40;
  m.layers = {{40, 8, 5, 2}, {8, 8, 5, 2}};
  m.mean.assign(LogMel::kBands, -5.0f);
  m.invStd.assign(LogMel::kBands, 0.5f);
  m.params.resize(m.paramCount());
  for (size_t i = 0; i < m.params.size(); ++i) m.params[i] = std::sin(static_cast<float>(i)) * 0.1f;
  return m;
}

// The detector over `samples`, restarted after each detection: how many, and the first one's frame.
size_t detections(WakeDetector& d, const std::vector<int16_t>& samples, size_t* firstFrame = nullptr) {
  size_t hits = 0;
  d.reset();
  for (size_t at = 0; at + 160 <= samples.size(); at += 160) {
    if (d.process(std::span<const int16_t>(samples.data() + at, 160))) {
      if (hits++ == 0 && firstFrame != nullptr) *firstFrame = at / 160;
      d.reset();
    }
  }
  return hits;
}

WakeDetector shipped() {
  auto m = WakeModel::load(kShippedModel);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  auto d = WakeDetector::create(m.ok() ? std::move(m).value() : tinyModel());
  EXPECT_TRUE(d.ok());
  return std::move(d).value();
}

TEST(LogMel, AToneLandsInItsBandAndSilenceOnTheFloor) {
  LogMel mel;
  std::vector<int16_t> frame(160);
  float out[LogMel::kBands];
  for (int n = 0; n < 10; ++n) {
    for (size_t i = 0; i < 160; ++i) {
      frame[i] = static_cast<int16_t>(
          8000 * std::sin(2 * std::numbers::pi * 1000.0 * static_cast<double>(n * 160 + static_cast<int>(i)) / 16000.0));
    }
    mel.push(frame, out);
  }
  size_t best = 0;
  for (size_t b = 1; b < LogMel::kBands; ++b) best = out[b] > out[best] ? b : best;
  // 1 kHz is 1000 mel; the 40 bands span 60-7600 Hz (92-2770 mel), ~65 mel apart: band 13 holds it.
  EXPECT_EQ(best, 13u);
  EXPECT_GT(out[best] - out[0], 10.0f);
  std::fill(frame.begin(), frame.end(), 0);
  for (int n = 0; n < 3; ++n) mel.push(frame, out);
  for (float v : out) EXPECT_FLOAT_EQ(v, LogMel::silence());
}

TEST(WakeModel, RoundTripsAndRefusesEveryCorruptionOrTruncation) {
  const WakeModel m = tinyModel();
  ASSERT_TRUE(m.validate().ok());
  const std::vector<std::byte> bytes = m.serialize();
  auto back = WakeModel::parse(bytes, "tiny");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->params, m.params);
  EXPECT_EQ(back->phrase, m.phrase);
  EXPECT_EQ(back->serialize(), bytes);
  for (size_t i = 0; i < bytes.size(); i += 7) {  // a flipped bit anywhere: the checksum or magic refuses it
    std::vector<std::byte> bad = bytes;
    bad[i] ^= std::byte{0x10};
    auto r = WakeModel::parse(bad, "tiny");
    ASSERT_FALSE(r.ok()) << "byte " << i;
    EXPECT_EQ(r.error().code, Errc::corrupt);
  }
  for (size_t n = 0; n < bytes.size(); n += 13) {
    auto r = WakeModel::parse(std::span(bytes).first(n), "tiny");
    ASSERT_FALSE(r.ok()) << "truncated to " << n;
    EXPECT_NE(r.error().message.find("tiny"), std::string::npos);
  }
}

TEST(WakeModel, ValidationNamesWhatIsWrong) {
  const auto problem = [](WakeModel m) { return m.validate().ok() ? std::string() : m.validate().error().message; };
  WakeModel m = tinyModel();
  m.layers[1].in = 7;
  EXPECT_NE(problem(m).find("layer 1"), std::string::npos);
  m = tinyModel();
  m.params.pop_back();
  EXPECT_NE(problem(m).find("parameter count"), std::string::npos);
  m = tinyModel();
  m.params[3] = std::nanf("");
  EXPECT_NE(problem(m).find("non-finite"), std::string::npos);
  m = tinyModel();
  m.windowFrames = 12;  // too short for two layers of kernel 5, stride 2
  m.endLagFrames = 4;
  EXPECT_NE(problem(m).find("longer window"), std::string::npos);
  m = tinyModel();
  m.threshold = 1.5f;
  EXPECT_NE(problem(m).find("threshold"), std::string::npos);
  auto missing = WakeModel::load("/nonexistent/x.wake");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Errc::not_found);
  EXPECT_NE(missing.error().message.find("/nonexistent/x.wake"), std::string::npos);
}

TEST(WakeNetwork, ShippedModelHearsThePhraseFromSeveralVoices) {
  TempDir dir;
  ASSERT_TRUE(silence(1.0, dir.file("sil.wav")));
  WakeDetector d = shipped();
  EXPECT_EQ(d.model().phrase, "hey computer");
  struct Case {
    std::string name;
    bool espeak;
    std::string voice;
  };
  const std::vector<Case> cases = {{"flite slt", false, ""}, {"espeak-ng en-us", true, "en-us"},
                                   {"espeak-ng en-gb+f4", true, "en-gb+f4"}};
  for (const Case& c : cases) {
    if (c.espeak && !test::haveTool("espeak-ng")) continue;
    const std::string wake = dir.file("wake.wav"), clip = dir.file("clip.wav");
    ASSERT_TRUE(c.espeak ? sayEspeak(c.voice, "hey computer", wake) : say("hey computer", wake)) << c.name;
    ASSERT_TRUE(concat({dir.file("sil.wav"), wake, dir.file("sil.wav")}, clip));
    const std::vector<int16_t> s = readMono(clip);
    size_t frame = 0;
    EXPECT_EQ(detections(d, s, &frame), 1u) << c.name << " (highest probability " << d.maxProbability() << ")";
    // Detected after the phrase ended (the network waits for its last word), within half a second of it.
    const size_t endFrame = 100 + readMono(wake).size() / 160;
    EXPECT_GE(frame + 30, endFrame) << c.name;
    EXPECT_LE(frame, endFrame + 50) << c.name;
  }
}

TEST(WakeNetwork, ThePhrasesWordsApartAndOtherGreetingsDoNotWakeIt) {
  TempDir dir;
  ASSERT_TRUE(silence(0.7, dir.file("sil.wav")));
  WakeDetector d = shipped();
  std::vector<std::string> parts = {dir.file("sil.wav")};
  const char* const lines[] = {"my computer is old", "hey there how are you", "the computer crashed again",
                               "hey what is the weather", "i need a new computer"};
  for (size_t i = 0; i < std::size(lines); ++i) {
    parts.push_back(dir.file("l" + std::to_string(i) + ".wav"));
    ASSERT_TRUE(say(lines[i], parts.back()));
    parts.push_back(dir.file("sil.wav"));
  }
  ASSERT_TRUE(concat(parts, dir.file("all.wav")));
  EXPECT_EQ(detections(d, readMono(dir.file("all.wav"))), 0u) << "highest probability " << d.maxProbability();
  // Noise alone.
  std::vector<int16_t> noise(16000 * 5);
  uint32_t x = 12345;
  for (int16_t& v : noise) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<int16_t>(static_cast<int32_t>(x >> 16) % 3000 - 1500);
  }
  EXPECT_EQ(detections(d, noise), 0u);
}

TEST(WakeNetwork, SpotterFallsBackToKeyphraseSpottingAndSaysWhy) {
  TempDir dir;
  WakeConfig c;
  c.acousticModel = std::string(kSphinx) + "en-us";
  c.dictionary = std::string(kSphinx) + "cmudict-en-us.dict";
  c.model = kShippedModel;
  auto net = WakeSpotter::create(c);
  ASSERT_TRUE(net.ok()) << net.error().message;
  EXPECT_STREQ(net.value()->engine(), "network");
  EXPECT_TRUE(net.value()->fallbackReason().empty());

  c.phrase = "hello computer";  // the model was trained for another phrase
  auto other = WakeSpotter::create(c);
  ASSERT_TRUE(other.ok());
  EXPECT_STREQ(other.value()->engine(), "keyphrase");
  EXPECT_NE(other.value()->fallbackReason().find("trained for 'hey computer'"), std::string::npos)
      << other.value()->fallbackReason();

  c.phrase = "hey computer";
  std::vector<char> bytes;
  {
    std::ifstream in(kShippedModel, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(bytes.size(), 1000u);
  bytes[bytes.size() / 2] ^= 1;
  {
    std::ofstream out(dir.file("corrupt.wake"), std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  c.model = dir.file("corrupt.wake");
  auto corrupt = WakeSpotter::create(c);
  ASSERT_TRUE(corrupt.ok());
  EXPECT_STREQ(corrupt.value()->engine(), "keyphrase");
  EXPECT_NE(corrupt.value()->fallbackReason().find("checksum"), std::string::npos) << corrupt.value()->fallbackReason();

  c.model = dir.file("missing.wake");
  auto missing = WakeSpotter::create(c);
  ASSERT_TRUE(missing.ok());
  EXPECT_NE(missing.value()->fallbackReason().find("missing.wake"), std::string::npos);
}

TEST(WakeNetwork, ListeningDoesNotAllocate) {
  if (!test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting is not supported in this build";
  WakeDetector d = shipped();
  std::vector<int16_t> s(16000 * 2);
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<int16_t>((i * 7919) % 2001 - 1000);
  const auto mark = test::AllocCounter::current(test::AllocScope::thisThread);
  for (size_t at = 0; at + 160 <= s.size(); at += 160) d.process(std::span<const int16_t>(s.data() + at, 160));
  d.reset();
  EXPECT_EQ(test::AllocCounter::allocationsSince(mark, test::AllocScope::thisThread), 0u);
  EXPECT_GT(d.runs(), 0u);
}

}  // namespace
}  // namespace sotto::speech
