// SPDX-License-Identifier: MIT
// The alsa backend on the real static libasound, hardware-free: file/null plugin PCMs from a private ALSA config.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "hal/audio/alsa/alsa_audio.h"
#include "sotto/hal/audio.h"
#include "tests/support/alsa_test_config.h"

using namespace sotto::hal;
using sotto::hal::alsa::AlsaSink;
using sotto::hal::alsa::AlsaSource;
using sotto::test::AlsaTestConfig;

namespace {

AudioSpec alsaSpec(const char* device, uint32_t rate = 16000) { return AudioSpec{"alsa", device, rate, 10, 4}; }

// A pattern no silence or shifted copy can match: every sample differs from its neighbours.
std::vector<int16_t> pattern(size_t n, int seed = 1) {
  std::vector<int16_t> v(n);
  uint32_t x = 0x9E3779B9u * static_cast<uint32_t>(seed);
  for (auto& s : v) {
    x = x * 1664525u + 1013904223u;
    s = static_cast<int16_t>(x >> 16);
  }
  return v;
}

class AlsaAudio : public testing::Test {
 protected:
  void SetUp() override { (void)AlsaTestConfig::instance(); }  // ALSA_CONFIG_PATH before libasound reads it
  const AlsaTestConfig& conf() { return AlsaTestConfig::instance(); }
};

}  // namespace

TEST_F(AlsaAudio, BackendIsRegistered) {
  auto names = AudioRegistry::instance().backends();
  EXPECT_NE(std::find(names.begin(), names.end(), "alsa"), names.end());
}

TEST_F(AlsaAudio, CaptureDeliversTheExactSamplesOfTheFile) {
  const auto want = pattern(160 * 50);
  conf().setCapture(want);
  auto src = AudioRegistry::instance().openSource(alsaSpec("sotto_capture"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto& s = **src;
  EXPECT_EQ(s.name(), "alsa:sotto_capture");
  EXPECT_EQ(s.format().rateHz, 16000u);
  EXPECT_EQ(s.format().periodFrames, 160u);
  EXPECT_EQ(s.format().periods, 4u);
  ASSERT_TRUE(s.start().ok());
  std::vector<int16_t> got, buf(160);
  for (int i = 0; i < 50; ++i) {
    auto n = s.read(buf);
    ASSERT_TRUE(n.ok()) << n.error().message;
    ASSERT_EQ(*n, 160u);
    got.insert(got.end(), buf.begin(), buf.end());
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(s.counters().frames, want.size());
  EXPECT_EQ(s.counters().xruns, 0u);
  EXPECT_TRUE(s.stop().ok());
}

TEST_F(AlsaAudio, PeriodAndBufferFollowTheSpec) {
  conf().setCapture(pattern(4800));
  auto src = AudioRegistry::instance().openSource(AudioSpec{"alsa", "sotto_capture", 16000, 20, 6});
  ASSERT_TRUE(src.ok()) << src.error().message;
  EXPECT_EQ((*src)->format().periodFrames, 320u);
  EXPECT_EQ((*src)->format().periods, 6u);
}

TEST_F(AlsaAudio, PlaybackWritesExactlyWhatWasWritten) {
  std::remove(conf().playbackFile().c_str());
  const auto want = pattern(480 * 40, 2);
  {
    auto sink = AudioRegistry::instance().openSink(alsaSpec("sotto_playback", 48000));
    ASSERT_TRUE(sink.ok()) << sink.error().message;
    auto& k = **sink;
    EXPECT_EQ(k.format().rateHz, 48000u);  // the null plugin takes any rate: the requested one
    EXPECT_EQ(k.format().periodFrames, 480u);
    ASSERT_TRUE(k.start().ok());
    for (size_t off = 0; off < want.size(); off += 480) {
      auto n = k.write(std::span<const int16_t>(want.data() + off, 480));
      ASSERT_TRUE(n.ok()) << n.error().message;
      EXPECT_EQ(*n, 480u);
    }
    EXPECT_EQ(k.counters().frames, want.size());
    EXPECT_TRUE(k.stop().ok());
  }  // closing the PCM flushes the file plugin
  EXPECT_EQ(conf().readPlayback(), want);
}

TEST_F(AlsaAudio, MissingDeviceErrorNamesTheDeviceAndTheAlsaError) {
  auto src = AudioRegistry::instance().openSource(alsaSpec("sotto_no_such_pcm"));
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.error().code, sotto::Errc::not_found);
  const std::string& m = src.error().message;
  EXPECT_NE(m.find("capture device 'sotto_no_such_pcm'"), std::string::npos) << m;
  EXPECT_NE(m.find("No such file or directory"), std::string::npos) << m;  // snd_strerror(-ENOENT)
  EXPECT_NE(m.find("Unknown PCM sotto_no_such_pcm"), std::string::npos) << m;  // ALSA's own detail

  auto sink = AudioRegistry::instance().openSink(alsaSpec("hw:7,0"));
  ASSERT_FALSE(sink.ok());
  EXPECT_NE(sink.error().message.find("playback device 'hw:7,0'"), std::string::npos) << sink.error().message;
}

TEST_F(AlsaAudio, RejectsUnusableSpecs) {
  auto one = AudioRegistry::instance().openSource(AudioSpec{"alsa", "sotto_capture", 16000, 10, 1});
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.error().message.find("'sotto_capture'"), std::string::npos);
  EXPECT_FALSE(AudioRegistry::instance().openSource(AudioSpec{"alsa", "sotto_capture", 16000, 0, 4}).ok());
  EXPECT_FALSE(AudioRegistry::instance().openSource(AudioSpec{"alsa", "", 16000, 10, 4}).ok());
}

// The null plugin has no clock, so it never overruns by itself: the seam makes the read return -EPIPE as the
// kernel does after an overrun, and the real snd_pcm_recover then re-prepares the real PCM.
TEST_F(AlsaAudio, CaptureRecoversFromOverrunAndSuspend) {
  const auto want = pattern(160 * 6, 3);
  conf().setCapture(want);
  auto src = AlsaSource::create(alsaSpec("sotto_capture"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto& s = **src;
  ASSERT_TRUE(s.start().ok());
  std::vector<int16_t> got, buf(160);
  auto readOne = [&] {
    auto n = s.read(buf);
    ASSERT_TRUE(n.ok()) << n.error().message;
    ASSERT_EQ(*n, 160u);
    got.insert(got.end(), buf.begin(), buf.end());
  };
  readOne();
  s.armFault(-EPIPE);
  readOne();  // recovered inside read(): still a whole period
  EXPECT_EQ(s.counters().xruns, 1u);
  EXPECT_EQ(s.counters().recoveries, 0u);
  s.armFault(-ESTRPIPE);
  readOne();
  EXPECT_EQ(s.counters().recoveries, 1u);
  readOne();
  EXPECT_EQ(got, std::vector<int16_t>(want.begin(), want.begin() + 160 * 4));  // nothing lost or repeated
}

TEST_F(AlsaAudio, PlaybackRecoversFromUnderrun) {
  std::remove(conf().playbackFile().c_str());
  const auto want = pattern(160 * 8, 4);
  {
    auto sink = AlsaSink::create(alsaSpec("sotto_playback"));
    ASSERT_TRUE(sink.ok()) << sink.error().message;
    auto& k = **sink;
    ASSERT_TRUE(k.start().ok());
    for (int i = 0; i < 8; ++i) {
      if (i == 5) k.armFault(-EPIPE);
      auto n = k.write(std::span<const int16_t>(want.data() + i * 160, 160));
      ASSERT_TRUE(n.ok()) << n.error().message;
      EXPECT_EQ(*n, 160u);
    }
    EXPECT_EQ(k.counters().xruns, 1u);
    EXPECT_TRUE(k.stop().ok());
  }
  EXPECT_EQ(conf().readPlayback(), want);
}

TEST_F(AlsaAudio, UnrecoverableErrorFailsTheReadNamingTheDevice) {
  conf().setCapture(pattern(1600, 5));
  auto src = AlsaSource::create(alsaSpec("sotto_capture"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  ASSERT_TRUE((*src)->start().ok());
  (*src)->armFault(-ENODEV);  // unplugged: snd_pcm_recover cannot help
  std::vector<int16_t> buf(160);
  auto n = (*src)->read(buf);
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().message.find("'alsa:sotto_capture'"), std::string::npos) << n.error().message;
  EXPECT_NE(n.error().message.find("read failed"), std::string::npos) << n.error().message;
  EXPECT_TRUE((*src)->read(buf).ok());  // the fault was one call; the PCM itself is fine
}

TEST_F(AlsaAudio, StopAndStartAgain) {
  conf().setCapture(pattern(1600, 6));
  auto src = AudioRegistry::instance().openSource(alsaSpec("sotto_capture"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  std::vector<int16_t> buf(160);
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE((*src)->start().ok());
    auto n = (*src)->read(buf);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_TRUE((*src)->stop().ok());
  }
  EXPECT_EQ((*src)->counters().frames, 320u);
}
