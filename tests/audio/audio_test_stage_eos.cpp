// SPDX-License-Identifier: MIT
// AudioStage at the end of a finite capture stream: a `?fast` wav source's 0-frame reads end the stream; the
// audio thread must not spin on them, and must keep serving playback.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "engine/speech/audio_stage.h"
#include "hal/audio/wav/wav_format.h"
#include "sotto/hal/audio.h"

using namespace std::chrono_literals;
using sotto::hal::AudioRegistry;
using sotto::hal::AudioSpec;

namespace {

std::string writeTone(size_t samples) {
  char tmpl[] = "/tmp/sotto-eos-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string path = dir + "/mic.wav";
  auto h = sotto::hal::wav::makeWavHeader(16000, 1, static_cast<uint32_t>(samples * 2));
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(h.data(), 1, h.size(), f);
  for (size_t i = 0; i < samples; ++i) {
    const int16_t s = static_cast<int16_t>((i % 32) < 16 ? 4000 : -4000);
    std::fwrite(&s, 2, 1, f);
  }
  std::fclose(f);
  return path;
}

void removeFile(const std::string& path) {
  std::remove(path.c_str());
  rmdir(path.substr(0, path.rfind('/')).c_str());
}

std::unique_ptr<sotto::speech::AudioStage> fastStage(const std::string& wav, bool withSink) {
  auto src = AudioRegistry::instance().openSource(AudioSpec{"wav", wav + "?fast", 16000, 10, 4});
  EXPECT_TRUE(src.ok()) << src.error().message;
  std::unique_ptr<sotto::hal::AudioSink> sink;
  if (withSink) {
    auto s = AudioRegistry::instance().openSink(AudioSpec{"null", "fast", 16000, 10, 4});
    EXPECT_TRUE(s.ok());
    sink = std::move(s).value();
  }
  auto stage = sotto::speech::AudioStage::create(std::move(src).value(), std::move(sink), 1u << 14, 1u << 14);
  EXPECT_TRUE(stage.ok());
  return std::move(stage).value();
}

// Runs the stage's thread for `period` after the stream ended; returns the cycles it made meanwhile.
uint64_t cyclesAfterEnd(sotto::speech::AudioStage& st, std::chrono::milliseconds period) {
  std::atomic<bool> stop{false};
  sotto::pipeline::Heartbeat beat;
  EXPECT_TRUE(st.start().ok());
  std::thread audio([&] { st.run(stop, beat); });
  for (int i = 0; i < 500 && !st.counters().captureEnded; ++i) std::this_thread::sleep_for(2ms);
  const uint64_t before = st.counters().cycles;
  std::this_thread::sleep_for(period);
  const uint64_t after = st.counters().cycles;
  const uint64_t beatsBefore = beat.beats();
  std::this_thread::sleep_for(50ms);
  EXPECT_GT(beat.beats(), beatsBefore) << "an ended stream is not a stalled stage: it must keep beating";
  stop.store(true, std::memory_order_release);
  audio.join();
  st.stopDevices();
  return after - before;
}

}  // namespace

TEST(AudioStageEndOfStream, FastWavSourceEndsWithoutSpinning) {
  const std::string wav = writeTone(1600 + 50);  // ten periods and a short last one
  auto st = fastStage(wav, false);
  ASSERT_TRUE(st);
  const uint64_t cycles = cyclesAfterEnd(*st, 300ms);
  const auto c = st->counters();
  EXPECT_TRUE(c.captureEnded);
  EXPECT_EQ(c.capturedFrames, 1650u);  // every frame, the short last period too
  EXPECT_EQ(st->captureRing().size(), 1650u);
  EXPECT_EQ(c.deviceErrors, 0u);
  // At most real time after the end: 30 periods in 300 ms (plus scheduling slack), not millions of empty reads.
  EXPECT_LE(cycles, 45u) << "the audio thread spins at the end of the stream";
  EXPECT_GE(cycles, 5u) << "the audio thread stopped serving after the end of the stream";
  removeFile(wav);
}

TEST(AudioStageEndOfStream, PlaybackContinuesAfterTheCaptureEnded) {
  const std::string wav = writeTone(800);
  auto st = fastStage(wav, true);
  ASSERT_TRUE(st);
  std::vector<int16_t> say(16000, 1000);
  ASSERT_EQ(st->playbackRing().write(say), say.size());
  const uint64_t cycles = cyclesAfterEnd(*st, 300ms);
  const auto c = st->counters();
  EXPECT_TRUE(c.captureEnded);
  EXPECT_LE(cycles, 45u);
  EXPECT_GE(c.playedFrames, 160u * 25) << "the speaker must keep being fed after the microphone's stream ended";
  removeFile(wav);
}
