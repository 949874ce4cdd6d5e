// SPDX-License-Identifier: MIT
// SpscRing: unit behaviour (capacity rules, full/empty, wraparound, bulk, drops) and two-thread order stress.
#include "engine/pipeline/spsc_ring.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "tests/pipeline/stress.h"

namespace sotto::pipeline {
namespace {

using stress::Backoff;

template <typename T>
SpscRing<T> makeRing(std::size_t capacity) {
  auto r = SpscRing<T>::create(capacity);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

TEST(SpscRing, CreateRefusesNonPowerOfTwoCapacity) {
  for (std::size_t bad : {std::size_t{0}, std::size_t{3}, std::size_t{6}, std::size_t{1000}, std::size_t{1023},
                          std::size_t{1025}}) {
    auto r = SpscRing<int>::create(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    EXPECT_NE(r.error().message.find(std::to_string(bad)), std::string::npos) << r.error().message;
  }
  auto huge = SpscRing<std::uint64_t>::create(SpscRing<std::uint64_t>::kMaxCapacity * 2);
  EXPECT_FALSE(huge.ok());
  for (std::size_t good : {std::size_t{1}, std::size_t{2}, std::size_t{64}, std::size_t{1024}}) {
    auto r = SpscRing<int>::create(good);
    ASSERT_TRUE(r.ok()) << good;
    EXPECT_EQ(r->capacity(), good);
    EXPECT_EQ(r->size(), 0u);
  }
}

TEST(SpscRing, IndicesLiveOnSeparateCacheLines) {
  // The class is cache-line aligned and spans at least three lines: config, producer side, consumer side.
  EXPECT_EQ(alignof(SpscRing<int>), kCacheLine);
  EXPECT_GE(sizeof(SpscRing<int>), 3 * kCacheLine);
  EXPECT_EQ(sizeof(SpscRing<int>) % kCacheLine, 0u);
}

TEST(SpscRing, DefaultConstructedRingRefusesEverything) {
  SpscRing<int> ring;
  int v = 7;
  EXPECT_EQ(ring.capacity(), 0u);
  EXPECT_FALSE(ring.tryPush(1));
  EXPECT_FALSE(ring.tryPop(v));
  EXPECT_EQ(v, 7);
  const int items[2] = {1, 2};
  EXPECT_EQ(ring.write(items), 0u);
  EXPECT_FALSE(ring.pushOrDrop(1));
  EXPECT_EQ(ring.dropped(), 1u);
}

TEST(SpscRing, FullAndEmpty) {
  auto ring = makeRing<int>(4);
  int out = -1;
  EXPECT_FALSE(ring.tryPop(out));
  EXPECT_EQ(out, -1);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ring.tryPush(i));
  EXPECT_EQ(ring.size(), 4u);
  EXPECT_FALSE(ring.tryPush(99));  // full: refused, nothing overwritten
  EXPECT_EQ(ring.dropped(), 0u);   // tryPush does not count: that is pushOrDrop's policy
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(ring.tryPop(out));
    EXPECT_EQ(out, i);
  }
  EXPECT_FALSE(ring.tryPop(out));
  EXPECT_EQ(ring.size(), 0u);
  // Capacity 1 works too: alternating full and empty.
  auto one = makeRing<int>(1);
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(one.tryPush(i));
    EXPECT_FALSE(one.tryPush(i));
    ASSERT_TRUE(one.tryPop(out));
    EXPECT_EQ(out, i);
    EXPECT_FALSE(one.tryPop(out));
  }
}

struct Frame {
  std::uint32_t seq;
  std::array<std::int16_t, 13> samples;  // odd size: no accidental alignment help
};

TEST(SpscRing, WrapsAroundManyTimesKeepingOrder) {
  auto ring = makeRing<Frame>(8);
  std::uint32_t next = 0;
  std::uint32_t expect = 0;
  for (int round = 0; round < 200; ++round) {
    const int n = 1 + round % 8;  // 1..8 items: every phase of the index relative to the wrap point
    for (int i = 0; i < n; ++i) {
      Frame f{};
      f.seq = next;
      f.samples.fill(static_cast<std::int16_t>(next * 3));
      ASSERT_TRUE(ring.tryPush(f));
      ++next;
    }
    EXPECT_EQ(ring.size(), static_cast<std::size_t>(n));
    Frame out{};
    while (ring.tryPop(out)) {
      ASSERT_EQ(out.seq, expect);
      ASSERT_EQ(out.samples[12], static_cast<std::int16_t>(expect * 3));
      ++expect;
    }
  }
  EXPECT_EQ(expect, next);
}

TEST(SpscRing, BulkWriteAndReadArePartialWhenNeeded) {
  auto ring = makeRing<int>(8);
  const std::vector<int> in = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(ring.write(std::span(in).first(5)), 5u);
  EXPECT_EQ(ring.write(std::span(in).subspan(5)), 3u);  // only 3 fit
  EXPECT_EQ(ring.write(std::span(in).subspan(8)), 0u);  // full
  EXPECT_EQ(ring.size(), 8u);
  std::array<int, 4> small{};
  EXPECT_EQ(ring.read(small), 4u);
  EXPECT_EQ(small, (std::array<int, 4>{0, 1, 2, 3}));
  std::array<int, 10> big{};
  EXPECT_EQ(ring.read(big), 4u);  // only 4 left
  EXPECT_EQ(big[0], 4);
  EXPECT_EQ(big[3], 7);
  EXPECT_EQ(ring.read(big), 0u);
  EXPECT_EQ(ring.write(std::span<const int>{}), 0u);
  EXPECT_EQ(ring.read(std::span<int>{}), 0u);
}

TEST(SpscRing, BulkCopiesSplitAcrossTheWrapPoint) {
  auto ring = makeRing<int>(8);
  int next = 0;
  int expect = 0;
  std::array<int, 7> chunk{};
  std::array<int, 7> out{};
  for (int round = 0; round < 100; ++round) {
    const std::size_t n = 1 + static_cast<std::size_t>(round) % 7;
    for (std::size_t i = 0; i < n; ++i) chunk[i] = next + static_cast<int>(i);
    ASSERT_EQ(ring.write(std::span(chunk).first(n)), n);
    next += static_cast<int>(n);
    const std::size_t got = ring.read(std::span(out).first(n));
    ASSERT_EQ(got, n);
    for (std::size_t i = 0; i < got; ++i) ASSERT_EQ(out[i], expect++);
  }
}

TEST(SpscRing, DropPolicyCountsWhatDidNotFit) {
  auto ring = makeRing<int>(4);
  EXPECT_TRUE(ring.pushOrDrop(1));
  EXPECT_TRUE(ring.pushOrDrop(2));
  const int items[5] = {3, 4, 5, 6, 7};
  EXPECT_EQ(ring.writeOrDrop(items), 2u);
  EXPECT_EQ(ring.dropped(), 3u);
  EXPECT_FALSE(ring.pushOrDrop(8));
  EXPECT_EQ(ring.dropped(), 4u);
  int out = 0;
  for (int want : {1, 2, 3, 4}) {
    ASSERT_TRUE(ring.tryPop(out));
    EXPECT_EQ(out, want);  // drops never displace stored items
  }
}

TEST(SpscRing, MoveTransfersContentsAndEmptiesTheSource) {
  auto a = makeRing<int>(4);
  ASSERT_TRUE(a.tryPush(10));
  ASSERT_TRUE(a.tryPush(11));
  ASSERT_TRUE(a.pushOrDrop(12));
  ASSERT_TRUE(a.pushOrDrop(13));
  ASSERT_FALSE(a.pushOrDrop(14));  // full: dropped and counted
  SpscRing<int> b(std::move(a));
  EXPECT_EQ(b.capacity(), 4u);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_EQ(b.dropped(), 1u);
  EXPECT_EQ(a.capacity(), 0u);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_FALSE(a.tryPush(1));
  SpscRing<int> c;
  c = std::move(b);
  int out = 0;
  ASSERT_TRUE(c.tryPop(out));
  EXPECT_EQ(out, 10);
}

// Producer and consumer on two threads; every item carries its sequence number, the consumer checks each one.
TEST(SpscRingStress, SingleItemApiKeepsStrictOrder) {
  const std::uint64_t total = stress::messages();
  auto ring = makeRing<std::uint64_t>(1024);  // small: the full and empty paths are taken constantly
  std::atomic<std::uint64_t> firstBad{UINT64_MAX};
  std::uint64_t received = 0;

  std::thread consumer([&] {
    Backoff backoff;
    std::uint64_t v = 0;
    while (received < total) {
      if (!ring.tryPop(v)) {
        backoff.pause();
        continue;
      }
      if (v != received && firstBad.load(std::memory_order_relaxed) == UINT64_MAX) {
        firstBad.store(received, std::memory_order_relaxed);
      }
      ++received;
    }
  });
  Backoff backoff;
  for (std::uint64_t i = 0; i < total;) {
    if (ring.tryPush(i)) {
      ++i;
    } else {
      backoff.pause();
    }
  }
  consumer.join();
  EXPECT_EQ(received, total);
  EXPECT_EQ(firstBad.load(), UINT64_MAX) << "first out-of-order item at position " << firstBad.load();
  EXPECT_EQ(ring.size(), 0u);
  EXPECT_EQ(ring.dropped(), 0u);
}

// Bulk API with chunk sizes that do not divide the capacity, so copies split at the wrap point on both sides.
TEST(SpscRingStress, BulkApiKeepsStrictOrder) {
  const std::uint64_t total = stress::messages();
  auto ring = makeRing<std::uint64_t>(256);
  std::atomic<std::uint64_t> firstBad{UINT64_MAX};
  std::uint64_t received = 0;

  std::thread consumer([&] {
    Backoff backoff;
    std::array<std::uint64_t, 113> buf{};
    std::size_t want = 1;
    while (received < total) {
      want = want % buf.size() + 1;  // 1..113, cycling
      const std::size_t got = ring.read(std::span(buf).first(want));
      if (got == 0) {
        backoff.pause();
        continue;
      }
      for (std::size_t i = 0; i < got; ++i) {
        if (buf[i] != received + i && firstBad.load(std::memory_order_relaxed) == UINT64_MAX) {
          firstBad.store(received + i, std::memory_order_relaxed);
        }
      }
      received += got;
    }
  });
  Backoff backoff;
  std::array<std::uint64_t, 97> chunk{};
  std::size_t size = 1;
  for (std::uint64_t next = 0; next < total;) {
    size = size % chunk.size() + 1;  // 1..97
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, total - next));
    for (std::size_t i = 0; i < n; ++i) chunk[i] = next + i;
    const std::size_t put = ring.write(std::span(chunk).first(n));  // a partial write resends the rest
    if (put == 0) backoff.pause();
    next += put;
  }
  consumer.join();
  EXPECT_EQ(received, total);
  EXPECT_EQ(firstBad.load(), UINT64_MAX) << "first out-of-order item at position " << firstBad.load();
}

}  // namespace
}  // namespace sotto::pipeline
