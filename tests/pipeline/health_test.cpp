// SPDX-License-Identifier: MIT
// Heartbeat and HealthMonitor: stalls detected, beating and idle stages healthy (with a test clock and for real).
#include "engine/pipeline/health.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

namespace sotto::pipeline {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

HealthMonitor makeMonitor(std::size_t maxStages) {
  auto r = HealthMonitor::create(maxStages);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

Heartbeat& addStage(HealthMonitor& m, std::string_view name) {
  auto r = m.addStage(name);
  EXPECT_TRUE(r.ok()) << name;
  return **r;
}

TEST(HealthMonitor, RegistrationRules) {
  EXPECT_FALSE(HealthMonitor::create(0).ok());
  HealthMonitor m = makeMonitor(2);
  EXPECT_FALSE(m.addStage("").ok());
  EXPECT_FALSE(m.addStage(std::string(HealthMonitor::kMaxNameLength + 1, 'x')).ok());
  ASSERT_TRUE(m.addStage(std::string(HealthMonitor::kMaxNameLength, 'a')).ok());
  ASSERT_TRUE(m.addStage("audio").ok());
  auto dup = m.addStage("audio");
  ASSERT_FALSE(dup.ok());
  auto full = m.addStage("speech");
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().code, Errc::busy);
  EXPECT_EQ(m.stageCount(), 2u);
  EXPECT_EQ(m.stageName(1), "audio");
  EXPECT_EQ(m.stageName(2), "");
}

TEST(HealthMonitor, HeartbeatsHaveTheirOwnCacheLines) {
  HealthMonitor m = makeMonitor(4);
  Heartbeat& a = addStage(m, "a");
  Heartbeat& b = addStage(m, "b");
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&a) % kCacheLine, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&b) % kCacheLine, 0u);
  EXPECT_GE(reinterpret_cast<std::uintptr_t>(&b) - reinterpret_cast<std::uintptr_t>(&a), kCacheLine);
}

TEST(HealthMonitor, BeatingStageIsHealthy) {
  HealthMonitor m = makeMonitor(4);
  Heartbeat& hb = addStage(m, "audio");
  std::uint64_t now = 1000 * kMs;
  EXPECT_TRUE(m.check(now, 100 * kMs).healthy);  // baseline
  for (int i = 0; i < 100; ++i) {
    now += 80 * kMs;  // checks 160 ms apart, more than the limit: what counts is a beat since the last check
    hb.beat();
    now += 80 * kMs;
    const HealthStatus s = m.check(now, 100 * kMs);
    ASSERT_TRUE(s.healthy) << i;
  }
  EXPECT_EQ(hb.beats(), 100u);
}

TEST(HealthMonitor, StalledStageIsDetectedAndNamed) {
  HealthMonitor m = makeMonitor(4);
  Heartbeat& audio = addStage(m, "audio");
  Heartbeat& speech = addStage(m, "speech");
  const std::uint64_t t0 = 5000 * kMs;
  const std::uint64_t limit = 100 * kMs;
  EXPECT_TRUE(m.check(t0, limit).healthy);
  audio.beat();
  speech.beat();
  EXPECT_TRUE(m.check(t0 + 10 * kMs, limit).healthy);
  // From t0 + 10 ms on, speech stops; audio keeps beating.
  for (std::uint64_t t = t0 + 20 * kMs; t <= t0 + 110 * kMs; t += 10 * kMs) {
    audio.beat();
    EXPECT_TRUE(m.check(t, limit).healthy) << (t - t0) / kMs;  // silence <= limit is fine
  }
  audio.beat();
  const HealthStatus s = m.check(t0 + 111 * kMs, limit);
  EXPECT_FALSE(s.healthy);
  EXPECT_EQ(s.stalledStage, "speech");
  EXPECT_EQ(s.stalledForNs, 101 * kMs);
  EXPECT_EQ(s.stalledCount, 1u);
  // It recovers as soon as it beats again.
  speech.beat();
  audio.beat();
  EXPECT_TRUE(m.check(t0 + 120 * kMs, limit).healthy);
}

TEST(HealthMonitor, ReportsTheFirstStalledStageInRegistrationOrder) {
  HealthMonitor m = makeMonitor(4);
  addStage(m, "audio");
  addStage(m, "speech");
  Heartbeat& brain = addStage(m, "brain");
  EXPECT_TRUE(m.check(0, 50 * kMs).healthy);
  brain.beat();
  EXPECT_TRUE(m.check(10 * kMs, 50 * kMs).healthy);
  const HealthStatus s = m.check(59 * kMs, 50 * kMs);
  EXPECT_FALSE(s.healthy);
  EXPECT_EQ(s.stalledStage, "audio");
  EXPECT_EQ(s.stalledCount, 2u);  // audio and speech; brain's window restarted at 10 ms
}

TEST(HealthMonitor, IdleStageIsNotStalledUntilItResumes) {
  HealthMonitor m = makeMonitor(2);
  Heartbeat& tts = addStage(m, "tts");
  tts.beat();
  EXPECT_TRUE(m.check(0, 50 * kMs).healthy);
  tts.markIdle();  // waiting for text to speak: no bound on the wait
  EXPECT_TRUE(tts.idle());
  for (std::uint64_t t = 10 * kMs; t < 10'000 * kMs; t += 1000 * kMs) EXPECT_TRUE(m.check(t, 50 * kMs).healthy);
  tts.beat();  // resumed: now it must keep beating
  EXPECT_FALSE(tts.idle());
  EXPECT_TRUE(m.check(10'000 * kMs, 50 * kMs).healthy);
  EXPECT_TRUE(m.check(10'040 * kMs, 50 * kMs).healthy);
  const HealthStatus s = m.check(10'051 * kMs, 50 * kMs);
  EXPECT_FALSE(s.healthy);
  EXPECT_EQ(s.stalledStage, "tts");
}

TEST(HealthMonitor, HeartbeatAddressesSurviveMovingTheMonitor) {
  HealthMonitor m = makeMonitor(2);
  Heartbeat& hb = addStage(m, "audio");
  HealthMonitor moved = std::move(m);
  EXPECT_EQ(moved.stageCount(), 1u);
  EXPECT_TRUE(moved.check(0, 10).healthy);
  hb.beat();  // still the moved monitor's heartbeat
  EXPECT_TRUE(moved.check(100, 10).healthy);
  EXPECT_FALSE(moved.check(200, 10).healthy);
}

TEST(HealthMonitor, MonotonicClockAdvances) {
  const std::uint64_t a = monotonicNowNs();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const std::uint64_t b = monotonicNowNs();
  EXPECT_GE(b - a, 2 * kMs);
}

// Real threads, real clock: a stage blocked in periodic I/O (each read returns after one 5 ms period) stays
// healthy, a stage idle in an unbounded wait stays healthy, and a wedged stage (blocked forever without saying
// so) is reported.
TEST(HealthMonitorThreads, WedgedStageDetectedPeriodicAndIdleStagesNot) {
  HealthMonitor m = makeMonitor(4);
  Heartbeat& pcm = addStage(m, "pcm");
  Heartbeat& idle = addStage(m, "idle");
  Heartbeat& wedged = addStage(m, "wedged");
  std::atomic<bool> stop{false};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();

  std::thread pcmThread([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // stands in for snd_pcm_readi
      pcm.beat();
    }
  });
  std::thread idleThread([&] {
    idle.beat();
    idle.markIdle();
    released.wait();  // e.g. waiting for a wake word event
  });
  std::thread wedgedThread([&] {
    for (int i = 0; i < 3; ++i) wedged.beat();
    released.wait();  // a wedged driver call: no beat, no markIdle
  });

  // Let every stage reach its steady state before watching (under TSan or qemu threads start slowly).
  while (pcm.beats() == 0 || !idle.idle() || wedged.beats() != 3) std::this_thread::yield();

  constexpr std::uint64_t kLimit = 250 * kMs;
  const std::uint64_t start = monotonicNowNs();
  std::uint64_t detectedAfter = 0;
  bool pcmOrIdleFlagged = false;
  std::string flagged;
  while (monotonicNowNs() - start < 10'000 * kMs) {
    const std::uint64_t now = monotonicNowNs();
    const HealthStatus s = m.check(now, kLimit);
    if (!s.healthy) {
      if (s.stalledStage != "wedged" || s.stalledCount != 1) {
        pcmOrIdleFlagged = true;
        flagged = std::string(s.stalledStage);
        break;
      }
      if (detectedAfter == 0) detectedAfter = now - start;
    }
    // Keep watching a while after detection, so the pcm stage is observed across many periods.
    if (detectedAfter != 0 && now - start > detectedAfter + 2 * kLimit) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stop.store(true);
  release.set_value();
  pcmThread.join();
  idleThread.join();
  wedgedThread.join();
  EXPECT_FALSE(pcmOrIdleFlagged) << flagged;
  ASSERT_NE(detectedAfter, 0u) << "the wedged stage was never reported";
  EXPECT_GT(detectedAfter, kLimit);  // not before its silence exceeded the limit
}

}  // namespace
}  // namespace sotto::pipeline
