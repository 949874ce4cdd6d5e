// SPDX-License-Identifier: MIT
// Histogram: fixed-memory, log-bucketed (HDR-style) latency histogram that any thread records into lock-free.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace sotto::pipeline {

// The bucket scheme: values below 256 each have their own bucket; above, every power-of-two range [2^k, 2^(k+1))
// is split into 128 equal buckets. A bucket's width is below 1/128 of its lowest value, so any value is known to
// 2 significant decimal digits (relative error < 0.79 %). Values up to kMaxTrackable (2^32 - 1: 71 minutes in
// microseconds, 4.3 s in nanoseconds) are resolved; larger ones are counted in the top bucket and in overflow.
// The unit is the caller's choice (pipeline metrics use microseconds).
struct HistogramBuckets {
  static constexpr unsigned kSubBucketBits = 8;
  static constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBucketBits;  // 256
  static constexpr std::uint64_t kHalf = kSubBuckets / 2;                           // 128
  static constexpr unsigned kValueBits = 32;
  static constexpr std::uint64_t kMaxTrackable = (std::uint64_t{1} << kValueBits) - 1;
  static constexpr std::size_t kCount = kSubBuckets + (kValueBits - kSubBucketBits) * kHalf;  // 3328

  // Bucket of value (clamped to kMaxTrackable). Inline: it is on every record().
  static constexpr std::size_t indexOf(std::uint64_t value) noexcept {
    if (value > kMaxTrackable) value = kMaxTrackable;
    if (value < kSubBuckets) return static_cast<std::size_t>(value);
    // shift >= 1 brings value into [128, 256): the top 8 bits select the sub-bucket within its power of two.
    const unsigned shift = static_cast<unsigned>(std::bit_width(value)) - kSubBucketBits;
    return static_cast<std::size_t>(kSubBuckets + (shift - 1) * kHalf + ((value >> shift) - kHalf));
  }
  // Smallest value in bucket index (index < kCount).
  static constexpr std::uint64_t lowest(std::size_t index) noexcept {
    if (index < kSubBuckets) return index;
    const std::uint64_t j = index - kSubBuckets;
    return (j % kHalf + kHalf) << (j / kHalf + 1);
  }
  // Largest value in bucket index (index < kCount).
  static constexpr std::uint64_t highest(std::size_t index) noexcept {
    if (index < kSubBuckets) return index;
    const std::uint64_t j = index - kSubBuckets;
    return lowest(index) + (std::uint64_t{1} << (j / kHalf + 1)) - 1;
  }
};
static_assert(HistogramBuckets::indexOf(HistogramBuckets::kMaxTrackable) == HistogramBuckets::kCount - 1);
static_assert(HistogramBuckets::highest(HistogramBuckets::kCount - 1) == HistogramBuckets::kMaxTrackable);

// Summary figures of a snapshot. Percentiles report the highest value of the bucket holding the exact
// percentile value (never below the exact value, above it by less than 1/128 of it), capped at max.
struct HistogramSummary {
  std::uint64_t count = 0;
  std::uint64_t min = 0;  // 0 when count == 0
  std::uint64_t max = 0;
  double mean = 0.0;
  std::uint64_t p50 = 0;
  std::uint64_t p95 = 0;
  std::uint64_t p99 = 0;
  std::uint64_t overflow = 0;  // values above kMaxTrackable
};

// A copy of a histogram's counts at one moment (about 26 KiB, held by value: no allocation).
// Threads: a plain value; any thread that owns it.
class HistogramSnapshot {
 public:
  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t min() const noexcept { return count_ == 0 ? 0 : min_; }
  std::uint64_t max() const noexcept { return max_; }
  double mean() const noexcept;
  std::uint64_t overflow() const noexcept { return overflow_; }

  // p in [0, 100]: the value below or at which p percent of the recorded values lie (nearest rank).
  // 0 returns min(), 100 returns max(), an empty snapshot returns 0.
  std::uint64_t percentile(double p) const noexcept;
  HistogramSummary summary() const noexcept;

  // Adds other's counts (e.g. per-thread histograms into one report).
  void merge(const HistogramSnapshot& other) noexcept;

 private:
  friend class Histogram;
  void settleExtremes() noexcept;

  std::array<std::uint64_t, HistogramBuckets::kCount> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t min_ = 0;
  std::uint64_t max_ = 0;
  std::uint64_t sum_ = 0;
  std::uint64_t overflow_ = 0;
};

// Threads: record() from any number of threads at once, including real-time ones: wait-free apart from the
// min/max update (a CAS loop that runs only while a new extreme is being set), no allocation, no system call.
// snapshot(), snapshotAndReset() and reset() from a control thread; while records continue, a snapshot is a
// consistent set of counts each of which was true at some moment during the call, and mean/min/max may already
// include a value whose count is not yet in.
// Memory: all inside the object (about 27 KiB); construct it at configure time (a member or a static, not on a
// real-time thread's stack).
class Histogram {
 public:
  Histogram() noexcept;
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  // Any thread. Relaxed atomic increments only: the counters are statistics that order nothing else.
  void record(std::uint64_t value) noexcept {
    counts_[HistogramBuckets::indexOf(value)].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(value, std::memory_order_relaxed);
    if (value > HistogramBuckets::kMaxTrackable) overflow_.fetch_add(1, std::memory_order_relaxed);
    // Load first: in steady state neither extreme changes and no CAS (no exclusive cache-line access) is needed.
    std::uint64_t cur = min_.load(std::memory_order_relaxed);
    while (value < cur && !min_.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
    }
    cur = max_.load(std::memory_order_relaxed);
    while (value > cur && !max_.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
    }
  }

  HistogramSnapshot snapshot() const noexcept;  // control thread
  // Control thread. Snapshot and zero in one pass: each concurrent record lands in this snapshot or the next
  // one, none is lost (for interval metrics).
  HistogramSnapshot snapshotAndReset() noexcept;
  void reset() noexcept;  // control thread; records racing with it may survive or not

 private:
  std::array<std::atomic<std::uint64_t>, HistogramBuckets::kCount> counts_;
  std::atomic<std::uint64_t> sum_{0};
  std::atomic<std::uint64_t> overflow_{0};
  std::atomic<std::uint64_t> min_;
  std::atomic<std::uint64_t> max_{0};
};

}  // namespace sotto::pipeline
