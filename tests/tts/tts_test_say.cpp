// SPDX-License-Identifier: MIT
// `sotto say`: WAV output, errors, the speaker path (audio thread + ring), and the closed loop through `sotto listen`.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/speech/speech_fixtures.h"
#include "tests/tts/tts_fixtures.h"

namespace sotto::test {
namespace {

int say(const std::vector<std::string>& args, std::string& output) {
  std::vector<std::string> a = {"say"};
  a.insert(a.end(), args.begin(), args.end());
  return runCapture(SOTTO_CLI_PATH, a, output);
}

hal::wav::WavInfo wavInfo(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto info = hal::wav::parseWav(bytes);
  EXPECT_TRUE(info.ok()) << path << ": " << (info.ok() ? "" : info.error().message);
  return info.ok() ? info.value() : hal::wav::WavInfo{};
}

void writeWav16k(const std::string& path, const std::vector<int16_t>& s) {
  std::ofstream out(path, std::ios::binary);
  const auto h = hal::wav::makeWavHeader(16000, 1, static_cast<uint32_t>(s.size() * 2));
  out.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size()));
  out.write(reinterpret_cast<const char*>(s.data()), static_cast<std::streamsize>(s.size() * 2));
}

TEST(Say, WritesAValidWav) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string out;
  const std::string wav = dir.file("hello.wav");
  ASSERT_EQ(say({"-o", wav, "Hello world, this is Sotto."}, out), 0) << out;
  EXPECT_NE(out.find("phrase"), std::string::npos) << out;
  auto info = wavInfo(wav);
  EXPECT_EQ(info.rateHz, 16000u);  // slt's own rate
  EXPECT_EQ(info.channels, 1u);
  EXPECT_EQ(info.bitsPerSample, 16u);
  EXPECT_GT(info.frames(), 16000u);      // over a second of speech
  EXPECT_LT(info.frames(), 16000u * 5);
  EXPECT_GT(rmsDbfs(readMono(wav)), -35.0);
  // Another voice and a resampled file.
  const std::string kal = dir.file("kal.wav");
  ASSERT_EQ(say({"--voice", "kal", "--rate", "44100", "-o", kal, "Hello world."}, out), 0) << out;
  EXPECT_EQ(wavInfo(kal).rateHz, 44100u);
}

TEST(Say, ClearErrors) {
  TempDir dir;
  std::string out;
  const std::string wav = dir.file("x.wav");
  EXPECT_EQ(say({"--voice", "nobody", "-o", wav, "hi"}, out), 1);
  EXPECT_NE(out.find("available: slt, kal, awb, rms"), std::string::npos) << out;
  EXPECT_EQ(say({"-o", wav}, out), 2);
  EXPECT_NE(out.find("nothing to say"), std::string::npos) << out;
  EXPECT_EQ(say({"--set", "tts.rate=1000", "-o", wav, "hi"}, out), 2);
  EXPECT_NE(out.find("tts.rate"), std::string::npos) << out;
  EXPECT_EQ(say({"-o", dir.file("no/such/dir/x.wav"), "hi"}, out), 1);
  EXPECT_NE(out.find("no/such/dir"), std::string::npos) << out;
  EXPECT_FALSE(std::ifstream(wav).good());  // nothing half-written
}

TEST(Say, PlaysThroughTheConfiguredSink) {
  // audio.playback.* names a (paced) wav sink: the audio thread pops the ring the TTS fills, as on a speaker.
  TempDir dir;
  std::string out;
  const std::string wav = dir.file("speaker.wav");
  ASSERT_EQ(say({"--set", "audio.playback.backend=wav", "--set", "audio.playback.device=" + wav, "--set",
                 "audio.playback.rate=48000", "Hi there."},
                out),
            0)
      << out;
  auto info = wavInfo(wav);
  EXPECT_EQ(info.rateHz, 48000u);
  const auto s = readMono(wav);
  EXPECT_GT(s.size(), 48000u / 2);
  EXPECT_GT(peak(s), 3000);
}

TEST(Say, ClosedLoopListenHearsTheWakeWordAndTheCommand) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string out;
  const std::string speech = dir.file("cmd.wav");
  ASSERT_EQ(say({"-o", speech, "hey computer, set a timer for five minutes."}, out), 0) << out;
  // One second of silence around it, as a room would have.
  auto s = readMono(speech);
  ASSERT_FALSE(s.empty());
  std::vector<int16_t> scene(16000, 0);
  scene.insert(scene.end(), s.begin(), s.end());
  scene.insert(scene.end(), 16000, 0);
  const std::string wav = dir.file("scene.wav");
  writeWav16k(wav, scene);
  int code = -1;
  const auto events = listen(wav, out, code);
  ASSERT_EQ(code, 0) << out;
  bool woke = false;
  std::string final;
  for (const auto& e : events) {
    woke = woke || e.event == "wake";
    if (e.event == "final") final = e.text;
  }
  EXPECT_TRUE(woke) << out;
  for (const char* w : {"timer", "five", "minutes"}) EXPECT_TRUE(hasWord(final, w)) << w << " in: " << final;
}

}  // namespace
}  // namespace sotto::test
