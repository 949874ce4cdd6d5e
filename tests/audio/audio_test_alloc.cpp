// SPDX-License-Identifier: MIT
// Steady state of the audio thread on real libasound (file plugin capture, null playback): no allocation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "engine/pipeline/health.h"
#include "engine/speech/audio_stage.h"
#include "sotto/hal/audio.h"
#include "tests/support/alloc_counter.h"
#include "tests/support/alsa_test_config.h"

using namespace std::chrono_literals;
using namespace sotto::hal;
using sotto::test::AllocCounter;
using sotto::test::AllocScope;
using sotto::test::NoAllocScope;

TEST(AlsaAudioAlloc, CaptureIntoTheStageRingsAllocatesNothing) {
  if (!AllocCounter::supported()) GTEST_SKIP() << "sanitizer build owns the allocator";
  const auto& conf = sotto::test::AlsaTestConfig::instance();
  std::vector<int16_t> speech(16000 * 5);
  for (size_t i = 0; i < speech.size(); ++i) speech[i] = static_cast<int16_t>((i * 37) & 0x7fff);
  conf.setCapture(speech);

  auto src = AudioRegistry::instance().openSource(AudioSpec{"alsa", "sotto_capture", 16000, 10, 4});
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto sink = AudioRegistry::instance().openSink(AudioSpec{"alsa", "sotto_null", 48000, 10, 4});
  ASSERT_TRUE(sink.ok()) << sink.error().message;
  auto stage = sotto::speech::AudioStage::create(std::move(*src), std::move(*sink), 1u << 14, 1u << 14);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  auto& st = **stage;
  ASSERT_TRUE(st.start().ok());

  std::atomic<bool> stop{false};
  sotto::pipeline::Heartbeat beat;
  std::thread audio([&] { st.run(stop, beat); });
  // The consumer side of the capture ring and the producer side of the playback ring, as the speech and TTS
  // threads would run them, with buffers reserved up front.
  std::vector<int16_t> in(1024), out(480, 1000);
  auto pump = [&] {
    (void)st.captureRing().read(in);
    (void)st.playbackRing().writeOrDrop(out);
  };
  for (int i = 0; i < 20; ++i) {  // warm-up: start-up may allocate
    pump();
    std::this_thread::sleep_for(5ms);
  }
  const uint64_t before = st.counters().capturedFrames;
  const uint64_t playedBefore = st.counters().playedFrames;
  uint64_t allocs = 0;
  {
    NoAllocScope scope(AllocScope::allThreads);
    for (int i = 0; i < 40; ++i) {
      pump();
      std::this_thread::sleep_for(5ms);
    }
    allocs = scope.allocations();
  }
  const auto c = st.counters();
  stop.store(true, std::memory_order_release);
  audio.join();
  st.stopDevices();
  EXPECT_GT(c.capturedFrames, before) << "frames must flow during the measurement, or the test proves nothing";
  EXPECT_GT(c.playedFrames, playedBefore);
  EXPECT_EQ(c.deviceErrors, 0u);
  EXPECT_EQ(allocs, 0u) << "allocations in steady state (mode " << AllocCounter::mode() << ")";
}
