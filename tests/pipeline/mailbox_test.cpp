// SPDX-License-Identifier: MIT
// Message, SpscMailbox, MpscMailbox and MpmcQueue: unit behaviour, drop counting and multi-producer order stress.
#include "engine/pipeline/mailbox.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/pipeline/stress.h"

namespace sotto::pipeline {
namespace {

using stress::Backoff;

TEST(Message, IsOneCacheLineWithBoundedText) {
  EXPECT_EQ(sizeof(Message), 64u);
  Message m = Message::make(3, 4, 5, "wake");
  EXPECT_EQ(m.type, 3u);
  EXPECT_EQ(m.arg, 4u);
  EXPECT_EQ(m.value, 5u);
  EXPECT_EQ(m.textView(), "wake");
  const std::string longText(100, 'x');
  m.setText(longText);
  EXPECT_EQ(m.textView().size(), Message::kTextSize - 1);
  EXPECT_EQ(m.text[Message::kTextSize - 1], '\0');
  m.setText("ab");
  EXPECT_EQ(m.textView(), "ab");
  EXPECT_EQ(m.text[2], '\0');
  EXPECT_EQ(m.text[40], '\0');  // stale tail cleared
  m.setText({});
  EXPECT_TRUE(m.textView().empty());
}

TEST(SpscMailbox, PostReceiveDrainAndDrops) {
  auto r = SpscMailbox<Message>::create(4);
  ASSERT_TRUE(r.ok());
  auto box = std::move(r).value();
  EXPECT_FALSE(SpscMailbox<Message>::create(5).ok());
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_TRUE(box.post(Message::make(1, i)));
  EXPECT_FALSE(box.post(Message::make(1, 99)));
  EXPECT_EQ(box.dropped(), 1u);
  EXPECT_FALSE(box.tryPost(Message::make(1, 98)));
  EXPECT_EQ(box.dropped(), 1u);  // tryPost leaves the policy to the caller
  EXPECT_EQ(box.size(), 4u);
  Message m;
  ASSERT_TRUE(box.tryReceive(m));
  EXPECT_EQ(m.arg, 0u);
  std::vector<std::uint32_t> seen;
  EXPECT_EQ(box.drain([&](const Message& msg) { seen.push_back(msg.arg); }, 2), 2u);  // bounded
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(box.drain([&](const Message& msg) { seen.push_back(msg.arg); }), 1u);
  EXPECT_EQ(seen.back(), 3u);
  EXPECT_FALSE(box.tryReceive(m));
}

TEST(MpmcQueue, CapacityRulesAndFifo) {
  EXPECT_FALSE(MpmcQueue<int>::create(0).ok());
  EXPECT_FALSE(MpmcQueue<int>::create(1).ok());  // one cell cannot tell full from empty
  EXPECT_FALSE(MpmcQueue<int>::create(12).ok());
  auto r = MpmcQueue<int>::create(8);
  ASSERT_TRUE(r.ok());
  auto q = std::move(r).value();
  for (int lap = 0; lap < 5; ++lap) {  // several laps: sequence numbers advance by capacity each time
    for (int i = 0; i < 8; ++i) ASSERT_TRUE(q.tryPush(lap * 100 + i));
    EXPECT_FALSE(q.tryPush(-1));
    EXPECT_EQ(q.sizeApprox(), 8u);
    int out = 0;
    for (int i = 0; i < 8; ++i) {
      ASSERT_TRUE(q.tryPop(out));
      EXPECT_EQ(out, lap * 100 + i);
    }
    EXPECT_FALSE(q.tryPop(out));
    EXPECT_EQ(q.sizeApprox(), 0u);
  }
  MpmcQueue<int> empty;
  int out = 0;
  EXPECT_FALSE(empty.tryPush(1));
  EXPECT_FALSE(empty.tryPop(out));
}

TEST(MpscMailbox, PostReceiveDropsAndMove) {
  auto r = MpscMailbox<Message>::create(2);
  ASSERT_TRUE(r.ok());
  auto box = std::move(r).value();
  EXPECT_TRUE(box.post(Message::make(7, 0, 0, "a")));
  EXPECT_TRUE(box.post(Message::make(7, 1, 0, "b")));
  EXPECT_FALSE(box.post(Message::make(7, 2)));
  EXPECT_FALSE(box.post(Message::make(7, 3)));
  EXPECT_EQ(box.dropped(), 2u);
  EXPECT_FALSE(box.tryPost(Message::make(7, 4)));
  EXPECT_EQ(box.dropped(), 2u);
  MpscMailbox<Message> moved(std::move(box));
  EXPECT_EQ(moved.dropped(), 2u);
  EXPECT_EQ(moved.capacity(), 2u);
  EXPECT_FALSE(box.post(Message::make(1)));  // NOLINT(bugprone-use-after-move): moved-from has capacity 0
  std::string texts;
  EXPECT_EQ(moved.drain([&](const Message& m) { texts += m.textView(); }), 2u);
  EXPECT_EQ(texts, "ab");
}

// Several poster threads, one receiver: nothing lost (posters retry when full), each poster's messages arrive
// in its own order.
TEST(MpscMailboxStress, MultiProducerKeepsPerProducerOrder) {
  constexpr std::uint32_t kProducers = 3;
  // 3 x 10^6 in all (3 x 10^5 under TSan): four threads share two cores.
  const std::uint64_t perProducer = stress::messages() / 10;
  auto r = MpscMailbox<Message>::create(256);
  ASSERT_TRUE(r.ok());
  auto box = std::move(r).value();

  std::atomic<bool> go{false};
  std::vector<std::thread> producers;
  for (std::uint32_t p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      Backoff backoff;
      Message m = Message::make(42, p);
      for (std::uint64_t i = 0; i < perProducer;) {
        m.value = i;
        if (box.tryPost(m)) {  // retries when full: nothing may be lost, nothing counted as dropped
          ++i;
        } else {
          backoff.pause();
        }
      }
    });
  }
  std::array<std::uint64_t, kProducers> next{};
  std::uint64_t disorder = 0;
  std::uint64_t badTag = 0;
  std::uint64_t received = 0;
  const std::uint64_t total = perProducer * kProducers;
  go.store(true, std::memory_order_release);
  Backoff backoff;
  while (received < total) {
    const std::size_t n = box.drain(
        [&](const Message& m) {
          if (m.type != 42 || m.arg >= kProducers) {
            ++badTag;
            return;
          }
          if (m.value != next[m.arg]) ++disorder;
          next[m.arg] = m.value + 1;
        },
        64);
    if (n == 0) backoff.pause();
    received += n;
  }
  for (auto& t : producers) t.join();
  EXPECT_EQ(received, total);
  EXPECT_EQ(badTag, 0u);
  EXPECT_EQ(disorder, 0u);
  for (std::uint32_t p = 0; p < kProducers; ++p) EXPECT_EQ(next[p], perProducer) << "producer " << p;
  EXPECT_EQ(box.dropped(), 0u);
  Message m;
  EXPECT_FALSE(box.tryReceive(m));
}

// Posters that never retry on a small mailbox: every message is either received or counted as dropped, and the
// received ones still arrive in per-poster order.
TEST(MpscMailboxStress, DropsAreCountedExactly) {
  constexpr std::uint32_t kProducers = 2;
  constexpr std::uint64_t kPerProducer = 200'000;
  auto r = MpscMailbox<Message>::create(16);
  ASSERT_TRUE(r.ok());
  auto box = std::move(r).value();
  std::atomic<std::uint32_t> finished{0};
  std::array<std::atomic<std::uint64_t>, kProducers> accepted{};
  std::vector<std::thread> producers;
  for (std::uint32_t p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      std::uint64_t ok = 0;
      for (std::uint64_t i = 0; i < kPerProducer; ++i) {
        if (box.post(Message::make(1, p, i))) ++ok;
      }
      accepted[p].store(ok, std::memory_order_relaxed);
      finished.fetch_add(1, std::memory_order_release);
    });
  }
  std::array<std::uint64_t, kProducers> received{};
  std::array<std::uint64_t, kProducers> last{};
  std::uint64_t disorder = 0;
  auto handle = [&](const Message& m) {
    if (received[m.arg] != 0 && m.value <= last[m.arg]) ++disorder;
    last[m.arg] = m.value;
    ++received[m.arg];
  };
  while (finished.load(std::memory_order_acquire) < kProducers) {
    if (box.drain(handle, 8) == 0) std::this_thread::yield();
  }
  for (auto& t : producers) t.join();
  box.drain(handle);
  std::uint64_t totalReceived = 0;
  for (std::uint32_t p = 0; p < kProducers; ++p) {
    EXPECT_EQ(received[p], accepted[p].load()) << "producer " << p;
    totalReceived += received[p];
  }
  EXPECT_EQ(totalReceived + box.dropped(), kProducers * kPerProducer);
  EXPECT_EQ(disorder, 0u);
}

}  // namespace
}  // namespace sotto::pipeline
