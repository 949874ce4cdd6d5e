// SPDX-License-Identifier: MIT
// LatencyPredictor: per-route sample rings; p95 by selection on a stack copy.
#include "engine/router/latency_predictor.h"

#include <algorithm>

namespace sotto::router {

LatencyPredictor::LatencyPredictor(const LatencyOptions& options) noexcept : options_(options) {}

void LatencyPredictor::record(Route route, std::uint32_t firstAudioMs) noexcept {
  const auto r = static_cast<std::size_t>(route);
  if (r >= kRouteCount || route == Route::cannotAnswer) return;
  Window& w = windows_[r];
  const std::uint64_t i = w.next.fetch_add(1, std::memory_order_relaxed);
  w.ms[i % kWindow].store(firstAudioMs, std::memory_order_relaxed);
}

void LatencyPredictor::seed(Route route, const pipeline::HistogramSummary& summary, std::uint32_t unitsPerMs) noexcept {
  if (summary.count == 0 || unitsPerMs == 0) return;
  const std::uint64_t ms = summary.p95 / unitsPerMs;
  const auto value = static_cast<std::uint32_t>(std::min<std::uint64_t>(ms, UINT32_MAX));
  const std::uint64_t n = std::min<std::uint64_t>(summary.count, kWindow);
  for (std::uint64_t i = 0; i < n; ++i) record(route, value);
}

std::uint64_t LatencyPredictor::samples(Route route) const noexcept {
  const auto r = static_cast<std::size_t>(route);
  return r < kRouteCount ? windows_[r].next.load(std::memory_order_relaxed) : 0;
}

std::uint32_t LatencyPredictor::predictMs(Route route) const noexcept {
  const auto r = static_cast<std::size_t>(route);
  if (r >= kRouteCount || route == Route::cannotAnswer) return 0;
  const Window& w = windows_[r];
  const std::uint64_t total = w.next.load(std::memory_order_relaxed);
  if (total < options_.minSamples || total == 0) return options_.priorMs[r];
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(total, kWindow));
  std::array<std::uint32_t, kWindow> copy;
  for (std::size_t i = 0; i < n; ++i) copy[i] = w.ms[i].load(std::memory_order_relaxed);
  // Nearest rank: the smallest value with at least 95 % of the samples at or below it.
  const std::size_t rank = (n * 95 + 99) / 100;
  auto* nth = copy.data() + (rank - 1);
  std::nth_element(copy.data(), nth, copy.data() + n);
  return *nth;
}

std::array<std::uint32_t, kRouteCount> LatencyPredictor::predictAll() const noexcept {
  std::array<std::uint32_t, kRouteCount> out{};
  for (std::size_t r = 0; r < kRouteCount; ++r) out[r] = predictMs(static_cast<Route>(r));
  return out;
}

}  // namespace sotto::router
