// SPDX-License-Identifier: MIT
// Audio HAL: registry lookups and errors, the null backend's pacing and state checks.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "sotto/hal/audio.h"

using namespace sotto::hal;

namespace {
AudioSpec nullSpec(const char* device, uint32_t rate = 16000) { return AudioSpec{"null", device, rate, 10, 4}; }
}  // namespace

TEST(AudioRegistry, NullBackendIsRegistered) {
  auto names = AudioRegistry::instance().backends();
  EXPECT_NE(std::find(names.begin(), names.end(), "null"), names.end());
}

TEST(AudioRegistry, UnknownBackendNamesItAndTheKnownOnes) {
  auto r = AudioRegistry::instance().openSource(AudioSpec{"nosuch", "x", 16000, 10, 4});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, sotto::Errc::not_found);
  EXPECT_NE(r.error().message.find("'nosuch'"), std::string::npos);
  EXPECT_NE(r.error().message.find("null"), std::string::npos);
}

TEST(AudioRegistry, MissingDeviceIsAClearError) {
  auto r = AudioRegistry::instance().openSink(nullSpec("hw:9,9"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'hw:9,9'"), std::string::npos);
}

TEST(AudioRegistry, RejectsUnusableFormats) {
  EXPECT_FALSE(AudioRegistry::instance().openSource(AudioSpec{"null", "default", 100, 10, 4}).ok());
  EXPECT_FALSE(AudioRegistry::instance().openSource(AudioSpec{"null", "default", 16000, 0, 4}).ok());
}

TEST(NullAudio, FastSourceYieldsSilencePeriods) {
  auto src = AudioRegistry::instance().openSource(nullSpec("fast"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto& s = **src;
  EXPECT_EQ(s.format().periodFrames, 160u);
  std::vector<int16_t> buf(160, 7);
  EXPECT_FALSE(s.read(buf).ok());  // not started
  ASSERT_TRUE(s.start().ok());
  for (int i = 0; i < 100; ++i) {
    auto n = s.read(buf);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 160u);
  }
  EXPECT_EQ(buf[0], 0);
  EXPECT_EQ(s.counters().frames, 16000u);
  std::vector<int16_t> small(10);
  EXPECT_FALSE(s.read(small).ok());
  EXPECT_TRUE(s.stop().ok());
}

TEST(NullAudio, DefaultSourceIsPacedInRealTime) {
  auto src = AudioRegistry::instance().openSource(nullSpec("default"));
  ASSERT_TRUE(src.ok());
  ASSERT_TRUE((*src)->start().ok());
  std::vector<int16_t> buf(160);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((*src)->read(buf).ok());
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(ms, 190);  // 20 periods of 10 ms, never faster than the device clock
}

TEST(NullAudio, PacedSinkAcceptsItsBufferThenPaces) {
  auto sink = AudioRegistry::instance().openSink(nullSpec("default", 48000));
  ASSERT_TRUE(sink.ok());
  auto& k = **sink;
  EXPECT_EQ(k.format().periodFrames, 480u);
  ASSERT_TRUE(k.start().ok());
  std::vector<int16_t> buf(480, 0);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(k.write(buf).ok());  // fills the 4-period buffer without waiting
  auto fillMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(k.write(buf).ok());
  auto totalMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(fillMs, 30);
  EXPECT_GE(totalMs, 95);  // the next 10 periods drain at 10 ms each
  EXPECT_EQ(k.counters().frames, 14u * 480u);
}
