// SPDX-License-Identifier: MIT
// Histogram: the bucket scheme, percentile accuracy against exact sorted values, reset, and concurrent records.
#include "engine/pipeline/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace sotto::pipeline {
namespace {

using B = HistogramBuckets;

// Percentiles as basis points (1/100 %) so the exact nearest rank is integer arithmetic, independent of the
// floating-point path under test.
constexpr std::uint64_t kBasisPoints[] = {1, 10, 100, 1000, 2500, 5000, 7500, 9000, 9500, 9900, 9990, 9999};

std::uint64_t exactPercentile(const std::vector<std::uint64_t>& sorted, std::uint64_t bp) {
  const std::uint64_t n = sorted.size();
  const std::uint64_t rank = std::max<std::uint64_t>(1, (bp * n + 9999) / 10000);  // ceil(bp/10000 * n)
  return sorted[rank - 1];
}

// The guarantee: the reported value is never below the exact one and above it by at most 1/128 of it.
void expectWithinBucketError(const Histogram& h, std::vector<std::uint64_t> values) {
  std::sort(values.begin(), values.end());
  const HistogramSnapshot s = h.snapshot();
  ASSERT_EQ(s.count(), values.size());
  EXPECT_EQ(s.min(), values.front());
  EXPECT_EQ(s.max(), values.back());
  long double sum = 0;
  for (std::uint64_t v : values) sum += static_cast<long double>(v);
  EXPECT_NEAR(s.mean(), static_cast<double>(sum / values.size()), 1e-9 * static_cast<double>(values.back()));
  for (std::uint64_t bp : kBasisPoints) {
    const std::uint64_t exact = exactPercentile(values, bp);
    const std::uint64_t got = s.percentile(static_cast<double>(bp) / 100.0);
    EXPECT_GE(got, exact) << "p" << static_cast<double>(bp) / 100.0;
    EXPECT_LE((got - exact) * 128, exact) << "p" << static_cast<double>(bp) / 100.0 << " exact " << exact
                                          << " got " << got;
  }
  EXPECT_EQ(s.percentile(0), values.front());
  EXPECT_EQ(s.percentile(100), values.back());
  const HistogramSummary sum2 = s.summary();
  EXPECT_EQ(sum2.p50, s.percentile(50));
  EXPECT_EQ(sum2.p95, s.percentile(95));
  EXPECT_EQ(sum2.p99, s.percentile(99));
  EXPECT_EQ(sum2.count, values.size());
}

TEST(HistogramBuckets, ContiguousTightAndInvertible) {
  EXPECT_EQ(B::kCount, 3328u);
  EXPECT_EQ(B::lowest(0), 0u);
  for (std::size_t i = 0; i < B::kCount; ++i) {
    const std::uint64_t lo = B::lowest(i);
    const std::uint64_t hi = B::highest(i);
    ASSERT_LE(lo, hi) << i;
    ASSERT_EQ(B::indexOf(lo), i);
    ASSERT_EQ(B::indexOf(hi), i);
    if (i + 1 < B::kCount) {
      ASSERT_EQ(B::lowest(i + 1), hi + 1) << i;  // no gaps, no overlaps
    }
    if (i >= B::kSubBuckets) {
      ASSERT_LE((hi - lo + 1) * 128, lo) << i;  // width <= lowest / 128
    }
  }
  EXPECT_EQ(B::highest(B::kCount - 1), B::kMaxTrackable);
  EXPECT_EQ(B::indexOf(B::kMaxTrackable + 1), B::kCount - 1);  // clamped
  EXPECT_EQ(B::indexOf(UINT64_MAX), B::kCount - 1);
}

TEST(Histogram, EmptySnapshotIsAllZero) {
  auto h = std::make_unique<Histogram>();
  const HistogramSummary s = h->snapshot().summary();
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.min, 0u);
  EXPECT_EQ(s.max, 0u);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.p99, 0u);
  EXPECT_EQ(h->snapshot().percentile(50), 0u);
}

TEST(Histogram, SmallValuesAreExact) {
  auto h = std::make_unique<Histogram>();
  std::vector<std::uint64_t> values;
  for (std::uint64_t v = 0; v < 256; ++v) {
    for (std::uint64_t k = 0; k <= v % 3; ++k) {
      h->record(v);
      values.push_back(v);
    }
  }
  std::sort(values.begin(), values.end());
  const HistogramSnapshot s = h->snapshot();
  for (std::uint64_t bp : kBasisPoints) EXPECT_EQ(s.percentile(bp / 100.0), exactPercentile(values, bp)) << bp;
}

TEST(Histogram, LogUniformValuesWithinBucketErrorUpToAnHour) {
  auto h = std::make_unique<Histogram>();
  std::mt19937_64 rng(12345);
  std::vector<std::uint64_t> values;
  const double top = std::log(3.6e9);  // one hour in microseconds
  for (int i = 0; i < 200'000; ++i) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    const auto v = static_cast<std::uint64_t>(std::exp(u * top));
    h->record(v);
    values.push_back(v);
  }
  expectWithinBucketError(*h, values);
}

TEST(Histogram, LatencyShapedValuesWithinBucketError) {
  // A round-trip-like shape: most requests 150..400 ms, a slow tail up to 3 s, in microseconds.
  auto h = std::make_unique<Histogram>();
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 100'000; ++i) {
    std::uint64_t v = 150'000 + rng() % 250'000;
    if (rng() % 50 == 0) v = 400'000 + rng() % 2'600'000;
    h->record(v);
    values.push_back(v);
  }
  expectWithinBucketError(*h, values);
}

TEST(Histogram, OverflowIsCountedAndMaxStaysExact) {
  auto h = std::make_unique<Histogram>();
  h->record(10);
  h->record(std::uint64_t{1} << 40);
  const HistogramSnapshot s = h->snapshot();
  EXPECT_EQ(s.overflow(), 1u);
  EXPECT_EQ(s.count(), 2u);
  EXPECT_EQ(s.max(), std::uint64_t{1} << 40);
  EXPECT_EQ(s.percentile(100), std::uint64_t{1} << 40);
  EXPECT_EQ(s.percentile(50), 10u);
  EXPECT_EQ(s.percentile(99), B::kMaxTrackable);  // resolved only up to the top bucket
}

TEST(Histogram, ResetAndSnapshotAndReset) {
  auto h = std::make_unique<Histogram>();
  for (std::uint64_t v = 1; v <= 1000; ++v) h->record(v);
  const HistogramSnapshot a = h->snapshotAndReset();
  EXPECT_EQ(a.count(), 1000u);
  EXPECT_EQ(a.min(), 1u);
  EXPECT_EQ(a.max(), 1000u);
  EXPECT_DOUBLE_EQ(a.mean(), 500.5);
  EXPECT_EQ(h->snapshot().count(), 0u);
  h->record(5);
  const HistogramSnapshot b = h->snapshot();
  EXPECT_EQ(b.count(), 1u);
  EXPECT_EQ(b.min(), 5u);  // min/max restarted too
  EXPECT_EQ(b.max(), 5u);
  h->reset();
  EXPECT_EQ(h->snapshot().count(), 0u);
  EXPECT_EQ(h->snapshot().max(), 0u);
}

TEST(Histogram, MergeAddsSnapshots) {
  auto h1 = std::make_unique<Histogram>();
  auto h2 = std::make_unique<Histogram>();
  std::vector<std::uint64_t> all;
  for (std::uint64_t v = 100; v < 5000; v += 7) {
    h1->record(v);
    all.push_back(v);
  }
  for (std::uint64_t v = 3; v < 90000; v += 13) {
    h2->record(v);
    all.push_back(v);
  }
  auto combined = std::make_unique<Histogram>();
  for (std::uint64_t v : all) combined->record(v);
  HistogramSnapshot merged = h1->snapshot();
  merged.merge(h2->snapshot());
  const HistogramSnapshot want = combined->snapshot();
  EXPECT_EQ(merged.count(), want.count());
  EXPECT_EQ(merged.min(), want.min());
  EXPECT_EQ(merged.max(), want.max());
  for (double p = 0; p <= 100; p += 0.5) EXPECT_EQ(merged.percentile(p), want.percentile(p)) << p;
}

// Several threads record at once: nothing is lost and the result equals a single-threaded recording.
TEST(HistogramConcurrency, ConcurrentRecordsLoseNothing) {
  constexpr int kThreads = 4;
  constexpr std::uint64_t kPerThread = 250'000;
  auto shared = std::make_unique<Histogram>();
  auto reference = std::make_unique<Histogram>();
  auto valueOf = [](int t, std::uint64_t i) { return (i * 2654435761u + static_cast<std::uint64_t>(t)) % 5'000'000; };
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (std::uint64_t i = 0; i < kPerThread; ++i) shared->record(valueOf(t, i));
    });
  }
  go.store(true, std::memory_order_release);
  // Snapshots taken meanwhile must be self-consistent: counts only grow, percentiles stay within [min, max].
  std::uint64_t lastCount = 0;
  for (int i = 0; i < 50; ++i) {
    const HistogramSnapshot s = shared->snapshot();
    EXPECT_GE(s.count(), lastCount);
    lastCount = s.count();
    if (s.count() > 0) {
      EXPECT_GE(s.percentile(50), s.min());
      EXPECT_LE(s.percentile(99), s.max());
    }
  }
  for (auto& th : threads) th.join();
  std::uint64_t sum = 0;
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (std::uint64_t i = 0; i < kPerThread; ++i) {
      const std::uint64_t v = valueOf(t, i);
      reference->record(v);
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  const HistogramSnapshot got = shared->snapshot();
  const HistogramSnapshot want = reference->snapshot();
  EXPECT_EQ(got.count(), kThreads * kPerThread);
  EXPECT_EQ(got.min(), lo);
  EXPECT_EQ(got.max(), hi);
  EXPECT_DOUBLE_EQ(got.mean(), static_cast<double>(sum) / static_cast<double>(kThreads * kPerThread));
  for (double p = 0; p <= 100; p += 0.25) ASSERT_EQ(got.percentile(p), want.percentile(p)) << p;
}

// snapshotAndReset while recording continues: every record lands in exactly one interval.
TEST(HistogramConcurrency, SnapshotAndResetLosesNothing) {
  constexpr std::uint64_t kRecords = 400'000;
  auto h = std::make_unique<Histogram>();
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (std::uint64_t i = 0; i < kRecords; ++i) h->record(i % 1000);
    done.store(true, std::memory_order_release);
  });
  std::uint64_t total = 0;
  while (!done.load(std::memory_order_acquire)) {
    total += h->snapshotAndReset().count();
    std::this_thread::yield();
  }
  writer.join();
  total += h->snapshotAndReset().count();
  EXPECT_EQ(total, kRecords);
}

}  // namespace
}  // namespace sotto::pipeline
