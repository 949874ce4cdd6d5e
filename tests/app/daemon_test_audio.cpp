// SPDX-License-Identifier: MIT
// sottod with the real audio backends by name from the config: alsa (file PCM from a test ALSA config) and wav.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "child.h"
#include "tests/support/alsa_test_config.h"

using namespace std::chrono_literals;
using sotto::test::AlsaTestConfig;
using sotto::test::DaemonChild;
using sotto::test::scaled;
using sotto::test::slowFactor;

// The child inherits ALSA_CONFIG_PATH (through qemu too), so its static libasound reads the test config.
TEST(DaemonAudio, ListensOnAnAlsaCaptureDevice) {
  const auto& conf = AlsaTestConfig::instance();
  std::vector<int16_t> tone(16000);
  for (size_t i = 0; i < tone.size(); ++i) tone[i] = static_cast<int16_t>((i % 40) < 20 ? 8000 : -8000);
  conf.setCapture(tone);
  DaemonChild d;
  auto args = d.baseArgs();
  args.insert(args.end(), {"--set", "audio.capture.backend=alsa", "--set", "audio.capture.device=sotto_capture"});
  d.start(args);
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("STATUS=listening on alsa:sotto_capture 16000 Hz"), std::string::npos) << ready;
  EXPECT_EQ(ready.find("DEGRADED"), std::string::npos) << ready;
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

TEST(DaemonAudio, MissingAlsaDeviceDegradesNamingIt) {
  (void)AlsaTestConfig::instance();
  DaemonChild d;
  auto args = d.baseArgs();
  args.insert(args.end(), {"--set", "audio.capture.backend=alsa", "--set", "audio.capture.device=sotto_missing_mic"});
  d.start(args);
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("not listening (no microphone)"), std::string::npos) << ready;
  EXPECT_NE(ready.find("DEGRADED"), std::string::npos) << ready;
  EXPECT_NE(ready.find("'sotto_missing_mic'"), std::string::npos) << ready;
  EXPECT_NE(d.stderrText().find("Unknown PCM sotto_missing_mic"), std::string::npos) << d.stderrText();
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0);
}

TEST(DaemonAudio, ListensOnAWavFile) {
  DaemonChild d;
  const std::string wav = d.dir() + "/mic.wav";
  {
    // One second of 16 kHz mono silence with a canonical header.
    const uint32_t bytes = 32000;
    const uint8_t h[44] = {'R', 'I', 'F', 'F', static_cast<uint8_t>((36 + bytes) & 0xff),
                           static_cast<uint8_t>((36 + bytes) >> 8), 0, 0, 'W', 'A', 'V', 'E', 'f', 'm', 't', ' ',
                           16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0x3e, 0, 0, 0x00, 0x7d, 0, 0, 2, 0, 16, 0,
                           'd', 'a', 't', 'a', static_cast<uint8_t>(bytes & 0xff), static_cast<uint8_t>(bytes >> 8),
                           0, 0};
    FILE* f = std::fopen(wav.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(h, 1, sizeof h, f);
    std::vector<uint8_t> zeros(bytes);
    std::fwrite(zeros.data(), 1, zeros.size(), f);
    std::fclose(f);
  }
  auto args = d.baseArgs();
  args.insert(args.end(), {"--set", "audio.capture.backend=wav", "--set", "audio.capture.device=" + wav});
  d.start(args);
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("STATUS=listening on wav:" + wav + " 16000 Hz"), std::string::npos) << ready;
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}
