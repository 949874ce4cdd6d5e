// SPDX-License-Identifier: MIT
// Steady state allocates nothing: ring, mailboxes, histogram, heartbeats, arena and pool across two threads.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "engine/pipeline/arena.h"
#include "engine/pipeline/health.h"
#include "engine/pipeline/histogram.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"
#include "tests/pipeline/stress.h"
#include "tests/support/alloc_counter.h"

namespace sotto::pipeline {
namespace {

using test::AllocCounts;
using test::AllocScope;
using test::NoAllocScope;

// A 10 ms mono frame at 16 kHz, as the audio thread hands to the speech thread.
struct AudioFrame {
  std::uint64_t seq;
  std::uint64_t captureNs;
  std::array<std::int16_t, 160> samples;
};

TEST(ZeroAlloc, SteadyStateAcrossTwoThreadsAllocatesNothing) {
  // Without a counter (sanitizer builds) the workload still runs, for the sanitizer's sake; only the
  // allocation verdict is skipped at the end.
  constexpr std::uint64_t kItems = 2'000'000;

  // Configure time: everything that allocates happens here.
  auto frames = SpscRing<AudioFrame>::create(64);
  auto tokens = SpscRing<std::uint64_t>::create(1024);
  auto events = SpscMailbox<Message>::create(64);
  auto commands = MpscMailbox<Message>::create(64);
  auto monitor = HealthMonitor::create(2);
  auto scratch = Arena::create(64 * 1024);
  auto pool = ObjectPool<Message>::create(16);
  ASSERT_TRUE(frames && tokens && events && commands && monitor && scratch && pool);
  auto latency = std::make_unique<Histogram>();
  auto producerBeat = monitor->addStage("audio");
  auto consumerBeat = monitor->addStage("speech");
  ASSERT_TRUE(producerBeat && consumerBeat);

  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::atomic<int> done{0};
  std::atomic<bool> letExit{false};  // workers stay alive until the counts are read: thread exit frees memory
  AllocCounts producerCounts;
  AllocCounts consumerCounts;
  std::uint64_t disorder = 0;
  std::uint64_t received = 0;
  std::uint64_t messages = 0;

  std::thread producer([&] {
    Heartbeat& hb = **producerBeat;
    stress::Backoff backoff;
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    NoAllocScope scope(AllocScope::thisThread);
    AudioFrame frame{};
    for (std::uint64_t i = 0; i < kItems; ++i) {
      while (!tokens->tryPush(i)) backoff.pause();
      if (i % 64 == 0) {
        frame.seq = i / 64;
        frame.captureNs = monotonicNowNs();
        frame.samples.fill(static_cast<std::int16_t>(i));
        frames->pushOrDrop(frame);
        events->post(Message::make(1, 0, i, "frame"));
        commands->post(Message::make(2, 1, i));
        // Per-cycle scratch memory: an arena rewound every cycle and a pool slot taken and returned.
        const Arena::Marker mark = scratch->mark();
        float* work = scratch->allocateArray<float>(160);
        if (work != nullptr) work[0] = 1.0f;
        scratch->rewind(mark);
        if (Message* m = pool->acquire(Message::make(3))) pool->release(m);
        hb.beat();
      }
      latency->record(i % 5000);
    }
    producerCounts = scope.counts();
    done.fetch_add(1, std::memory_order_release);
    while (!letExit.load(std::memory_order_acquire)) std::this_thread::yield();
  });

  std::thread consumer([&] {
    Heartbeat& hb = **consumerBeat;
    stress::Backoff backoff;
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    NoAllocScope scope(AllocScope::thisThread);
    std::array<std::uint64_t, 32> batch{};
    AudioFrame frame{};
    while (received < kItems) {
      const std::size_t n = tokens->read(batch);
      if (n == 0) {
        backoff.pause();
        hb.beat();
        continue;
      }
      for (std::size_t k = 0; k < n; ++k) disorder += batch[k] != received + k ? 1 : 0;
      received += n;
      while (frames->tryPop(frame)) latency->record((monotonicNowNs() - frame.captureNs) / 1000);
      messages += events->drain([](const Message& m) { (void)m; }, 8);
      messages += commands->drain([](const Message& m) { (void)m; }, 8);
      hb.beat();
    }
    consumerCounts = scope.counts();
    done.fetch_add(1, std::memory_order_release);
    while (!letExit.load(std::memory_order_acquire)) std::this_thread::yield();
  });

  while (ready.load() != 2) std::this_thread::yield();
  // From here on the whole process must not allocate: both workers and this (watchdog) thread.
  NoAllocScope process(AllocScope::allThreads);
  go.store(true, std::memory_order_release);
  std::uint64_t checks = 0;
  while (done.load(std::memory_order_acquire) != 2) {
    (void)monitor->check(monotonicNowNs(), 10'000'000'000ull);
    (void)latency->snapshot().summary();  // a control thread reading metrics meanwhile
    ++checks;
    std::this_thread::yield();
  }
  const AllocCounts processCounts = process.counts();
  letExit.store(true, std::memory_order_release);
  producer.join();
  consumer.join();

  // The work was real.
  EXPECT_EQ(received, kItems);
  EXPECT_EQ(disorder, 0u);
  EXPECT_GT(messages, 0u);
  EXPECT_GT(checks, 0u);
  EXPECT_GE(latency->snapshot().count(), kItems);
  EXPECT_EQ((*producerBeat)->beats(), kItems / 64);
  EXPECT_EQ(pool->inUse(), 0u);

  if (!test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable (sanitizer build)";
  EXPECT_EQ(producerCounts.allocations, 0u);
  EXPECT_EQ(producerCounts.deallocations, 0u);
  EXPECT_EQ(consumerCounts.allocations, 0u);
  EXPECT_EQ(consumerCounts.deallocations, 0u);
  EXPECT_EQ(processCounts.allocations, 0u);
  EXPECT_EQ(processCounts.deallocations, 0u);
}

}  // namespace
}  // namespace sotto::pipeline
