// SPDX-License-Identifier: MIT
// Histogram: snapshots, percentiles and reset (the control-thread side).
#include "engine/pipeline/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sotto::pipeline {

namespace {
constexpr std::uint64_t kNoMin = std::numeric_limits<std::uint64_t>::max();
}  // namespace

double HistogramSnapshot::mean() const noexcept {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
}

std::uint64_t HistogramSnapshot::percentile(double p) const noexcept {
  if (count_ == 0) return 0;
  if (!(p > 0.0)) return min();  // also NaN
  if (p >= 100.0) return max_;
  // Nearest rank: the smallest value with at least ceil(p% of count) values at or below it. The tiny
  // subtraction keeps p * count that should be an integer (99.9 * 1000) from rounding up past it.
  const double exact = p / 100.0 * static_cast<double>(count_);
  auto rank = static_cast<std::uint64_t>(std::ceil(exact - exact * 1e-12));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(HistogramBuckets::highest(i), max_);
  }
  return max_;  // not reached: the counts add up to count_
}

HistogramSummary HistogramSnapshot::summary() const noexcept {
  HistogramSummary s;
  s.count = count_;
  s.min = min();
  s.max = max_;
  s.mean = mean();
  s.p50 = percentile(50.0);
  s.p95 = percentile(95.0);
  s.p99 = percentile(99.0);
  s.overflow = overflow_;
  return s;
}

void HistogramSnapshot::settleExtremes() noexcept {
  if (count_ == 0) {
    min_ = 0;
    max_ = 0;
    return;
  }
  // A record racing with the snapshot may have its count in but not yet its min/max update (the fields are
  // independent relaxed atomics). Keep min/max consistent with the counts so percentiles stay within them.
  std::size_t first = 0;
  while (counts_[first] == 0) ++first;
  std::size_t last = counts_.size() - 1;
  while (counts_[last] == 0) --last;
  min_ = std::min(min_, HistogramBuckets::highest(first));
  max_ = std::max(max_, HistogramBuckets::lowest(last));
}

void HistogramSnapshot::merge(const HistogramSnapshot& other) noexcept {
  if (other.count_ == 0) return;
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  overflow_ += other.overflow_;
}

Histogram::Histogram() noexcept : min_(kNoMin) {
  for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
}

HistogramSnapshot Histogram::snapshot() const noexcept {
  HistogramSnapshot s;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    s.counts_[i] = counts_[i].load(std::memory_order_relaxed);
    s.count_ += s.counts_[i];
  }
  s.sum_ = sum_.load(std::memory_order_relaxed);
  s.overflow_ = overflow_.load(std::memory_order_relaxed);
  s.min_ = min_.load(std::memory_order_relaxed);
  s.max_ = max_.load(std::memory_order_relaxed);
  s.settleExtremes();
  return s;
}

HistogramSnapshot Histogram::snapshotAndReset() noexcept {
  HistogramSnapshot s;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    s.counts_[i] = counts_[i].exchange(0, std::memory_order_relaxed);
    s.count_ += s.counts_[i];
  }
  s.sum_ = sum_.exchange(0, std::memory_order_relaxed);
  s.overflow_ = overflow_.exchange(0, std::memory_order_relaxed);
  s.min_ = min_.exchange(kNoMin, std::memory_order_relaxed);
  s.max_ = max_.exchange(0, std::memory_order_relaxed);
  s.settleExtremes();
  return s;
}

void Histogram::reset() noexcept {
  for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
  sum_.store(0, std::memory_order_relaxed);
  overflow_.store(0, std::memory_order_relaxed);
  min_.store(kNoMin, std::memory_order_relaxed);
  max_.store(0, std::memory_order_relaxed);
}

}  // namespace sotto::pipeline
