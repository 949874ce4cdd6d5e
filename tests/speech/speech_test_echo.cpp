// SPDX-License-Identifier: MIT
// Echo cancellation on a generated mix: device speech (flite) played as the reference, its delayed and attenuated
// echo plus a user's speech at the microphone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "engine/speech/echo_canceller.h"
#include "tests/speech/speech_fixtures.h"
#include "tests/support/alloc_counter.h"

namespace sotto::test {
namespace {

constexpr size_t kFrame = 160;  // 10 ms at 16 kHz

// A room: the direct path 24 ms late and attenuated, and a few reflections (45 ms of echo path in all).
std::vector<int16_t> roomEcho(const std::vector<int16_t>& x) {
  struct Tap {
    size_t delay;
    double gain;
  };
  const Tap taps[] = {{384, 0.6}, {424, 0.25}, {496, -0.15}, {704, 0.08}};
  std::vector<int16_t> y(x.size());
  for (size_t n = 0; n < x.size(); ++n) {
    double v = 0;
    for (const Tap& t : taps) {
      if (n >= t.delay) v += t.gain * x[n - t.delay];
    }
    y[n] = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
  }
  return y;
}

double energy(const std::vector<int16_t>& s, size_t from, size_t to) {
  double e = 0;
  for (size_t i = from; i < to && i < s.size(); ++i) e += double(s[i]) * s[i];
  return e;
}

// Normalized cross-correlation of a (delayed by 0..maxLag samples: the residual suppressor's spectral processing
// may shift it) with the clean b over [from, to): 1 = a is b, lower = other signals (echo) mixed in.
double similarity(const std::vector<int16_t>& a, const std::vector<int16_t>& b, size_t from, size_t to) {
  double best = 0;
  for (size_t lag = 0; lag <= 320; lag += 2) {
    double ab = 0, aa = 0, bb = 0;
    for (size_t i = from; i < to && i + lag < a.size(); ++i) {
      ab += double(a[i + lag]) * b[i];
      aa += double(a[i + lag]) * a[i + lag];
      bb += double(b[i]) * b[i];
    }
    if (aa > 0 && bb > 0) best = std::max(best, ab / std::sqrt(aa * bb));
  }
  return best;
}

double db(double ratio) { return 10 * std::log10(ratio); }

class EchoCancel : public ::testing::Test {
 protected:
  void SetUp() override {
    SOTTO_REQUIRE_SPEECH_TOOLS();
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(say("The weather today will be mostly sunny, with a high of seventy two degrees, light winds from "
                    "the west, and a small chance of rain in the late evening.",
                    dir_.file("device.wav")));
    ASSERT_TRUE(run("flite -voice kal -t \"hey computer what time is it\" -o '" + dir_.file("user.tts.wav") +
                    "' && sox '" + dir_.file("user.tts.wav") + "' -r 16000 -c 1 -b 16 '" + dir_.file("user.wav") +
                    "'"));
    device_ = readMono(dir_.file("device.wav"));
    user_ = readMono(dir_.file("user.wav"));
    ASSERT_GT(device_.size(), 16000u * 5) << "the device sentence should last more than 5 s";
    ASSERT_GT(user_.size(), 16000u);
    // The microphone: the echo throughout, the user from 3 s on (double talk), a little noise floor.
    const std::vector<int16_t> echo = roomEcho(device_);
    userAt_ = 3 * 16000;
    mic_.assign(std::max(device_.size(), userAt_ + user_.size()), 0);
    userAligned_.assign(mic_.size(), 0);
    uint32_t seed = 12345;
    for (size_t i = 0; i < mic_.size(); ++i) {
      seed = seed * 1664525u + 1013904223u;
      double v = static_cast<int32_t>(seed >> 16) % 64 - 32;  // about -60 dBFS
      if (i < echo.size()) v += echo[i];
      if (i >= userAt_ && i - userAt_ < user_.size()) {
        userAligned_[i] = user_[i - userAt_];
        v += user_[i - userAt_];
      }
      mic_[i] = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
    }
  }

  // Runs the canceller over the whole mix, as the audio thread does: each period, what was played, then the
  // captured period. `reference` is at `playRate` (the device speech, possibly resampled for a 48 kHz sink).
  std::vector<int16_t> cancel(const std::vector<int16_t>& reference, uint32_t playRate, uint64_t* allocations) {
    sotto::speech::EchoConfig cfg;
    cfg.playbackRateHz = playRate;
    cfg.playbackFrames = playRate / 100;
    auto ec = sotto::speech::EchoCanceller::create(cfg);
    EXPECT_TRUE(ec.ok()) << ec.error().message;
    if (!ec.ok()) return {};
    std::vector<int16_t> out = mic_;
    std::vector<int16_t> played(cfg.playbackFrames);
    const size_t periods = out.size() / kFrame;
    NoAllocScope scope(AllocScope::thisThread);
    for (size_t p = 0; p < periods; ++p) {
      for (size_t i = 0; i < played.size(); ++i) {
        const size_t at = p * played.size() + i;
        played[i] = at < reference.size() ? reference[at] : 0;
      }
      (*ec)->played(played);
      (*ec)->process(std::span<int16_t>(out.data() + p * kFrame, kFrame));
    }
    *allocations = scope.allocations();
    EXPECT_EQ((*ec)->counters().frames, periods);
    EXPECT_EQ((*ec)->counters().referenceDropped, 0u);
    return out;
  }

  // Echo return loss enhancement over the echo-only stretch after convergence (1 s .. 3 s), and how well the
  // user's speech survives the double talk (3 s ..): the error against the clean user speech must shrink.
  void checkCancelled(const std::vector<int16_t>& out, const char* what) {
    const size_t from = 16000, to = userAt_;
    const double erle = db(energy(mic_, from, to) / energy(out, from, to));
    const size_t dtTo = std::min(device_.size(), userAt_ + user_.size());
    const double before = similarity(mic_, userAligned_, userAt_, dtTo);
    const double after = similarity(out, userAligned_, userAt_, dtTo);
    const double userKept = db(energy(out, userAt_, dtTo) / energy(userAligned_, userAt_, dtTo));
    std::printf("[%s] ERLE %.1f dB; similarity to the user in double talk %.2f -> %.2f; level vs user %+.1f dB\n",
                what, erle, before, after, userKept);
    EXPECT_GE(erle, 10.0) << what;
    EXPECT_GE(after, before + 0.1) << what << ": the echo under the user's speech must shrink";
    EXPECT_GT(userKept, -3.0) << what << ": the user's speech must not be cancelled with the echo";
  }

  TempDir dir_;
  std::vector<int16_t> device_, user_, mic_, userAligned_;
  size_t userAt_ = 0;
};

TEST_F(EchoCancel, AttenuatesEchoAndKeepsTheUserAtTheCaptureRate) {
  uint64_t allocs = 99;
  const auto out = cancel(device_, 16000, &allocs);
  ASSERT_FALSE(out.empty());
  checkCancelled(out, "16 kHz reference");
  if (AllocCounter::supported()) {
    EXPECT_EQ(allocs, 0u) << "the audio thread's echo canceller allocated";
  }
}

TEST_F(EchoCancel, ResamplesA48kHzReference) {
  ASSERT_TRUE(run("sox -R '" + dir_.file("device.wav") + "' -r 48000 '" + dir_.file("device48.wav") + "'"));
  const auto device48 = readMono(dir_.file("device48.wav"));
  ASSERT_GT(device48.size(), device_.size() * 2);
  uint64_t allocs = 99;
  const auto out = cancel(device48, 48000, &allocs);
  ASSERT_FALSE(out.empty());
  checkCancelled(out, "48 kHz reference");
  if (AllocCounter::supported()) {
    EXPECT_EQ(allocs, 0u) << "the audio thread's echo canceller allocated";
  }
}

TEST_F(EchoCancel, WithoutTheReferenceNothingIsCancelled) {
  // The same mix with a silent reference: the canceller must not invent attenuation (the test can fail).
  uint64_t allocs = 0;
  const auto out = cancel(std::vector<int16_t>(device_.size(), 0), 16000, &allocs);
  ASSERT_FALSE(out.empty());
  const double erle = db(energy(mic_, 16000, userAt_) / energy(out, 16000, userAt_));
  EXPECT_LT(erle, 1.0);
}

TEST(EchoCancelConfig, RejectsBadSettings) {
  sotto::speech::EchoConfig cfg;
  cfg.tailMs = 5;
  EXPECT_FALSE(sotto::speech::EchoCanceller::create(cfg).ok());
  cfg.tailMs = 128;
  cfg.captureFrames = 0;
  EXPECT_FALSE(sotto::speech::EchoCanceller::create(cfg).ok());
}

}  // namespace
}  // namespace sotto::test
