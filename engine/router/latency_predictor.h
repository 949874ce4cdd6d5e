// SPDX-License-Identifier: MIT
// LatencyPredictor: the live p95 of time to first audio per route, from a sliding window of recent samples.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "engine/pipeline/histogram.h"
#include "engine/router/route.h"

namespace sotto::router {

struct LatencyOptions {
  std::uint32_t minSamples = 5;  // fewer samples than this: the route's prior stands
  // Prior per route (Route order) until enough samples exist, in ms; 0 = unknown (no prediction). The daemon
  // seeds intent and cache with latency.simple-ms and local with latency.local-ms; the cloud is unknown.
  std::array<std::uint32_t, kRouteCount> priorMs{300, 300, 800, 0, 0};
};

// Threads: record() from any thread (the TTS or audio side measures first audio), predict*() from any thread;
// both lock-free, no allocation, no system call. A prediction racing with a record may see the slot being
// written with its old or new value: a statistic, not a synchronization point.
class LatencyPredictor {
 public:
  static constexpr std::size_t kWindow = 128;  // most recent samples per route

  explicit LatencyPredictor(const LatencyOptions& options = {}) noexcept;

  // One measured time from decision to first audio on `route` (cannotAnswer is ignored).
  void record(Route route, std::uint32_t firstAudioMs) noexcept;
  // Adds a histogram's recorded values as samples (e.g. restored from a previous run's metrics): its p95 enters the
  // window min(count, kWindow) times, so a long history outweighs a few fresh samples only until they accumulate.
  void seed(Route route, const pipeline::HistogramSummary& summary, std::uint32_t unitsPerMs = 1000) noexcept;

  // p95 (nearest rank) of the window, the prior with fewer than minSamples samples; 0 = unknown.
  std::uint32_t predictMs(Route route) const noexcept;
  std::array<std::uint32_t, kRouteCount> predictAll() const noexcept;
  std::uint64_t samples(Route route) const noexcept;

 private:
  struct Window {
    std::array<std::atomic<std::uint32_t>, kWindow> ms{};
    std::atomic<std::uint64_t> next{0};
  };
  LatencyOptions options_;
  std::array<Window, kRouteCount> windows_;
};

}  // namespace sotto::router
