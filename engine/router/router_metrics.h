// SPDX-License-Identifier: MIT
// RouterMetrics: counters of the route mix, reasons, cloud blocks, fillers, fallbacks and breaker trips.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "engine/router/route.h"

namespace sotto::router {

struct RouteDecision;

// A plain copy of the counters at one moment.
struct RouterCounts {
  std::array<std::uint64_t, kRouteCount> routes{};
  std::array<std::uint64_t, kReasonCount> reasons{};
  std::array<std::uint64_t, kCloudBlockCount> cloudBlocks{};
  std::uint64_t decisions = 0;
  std::uint64_t fillers = 0;            // "Let me check that." spoken
  std::uint64_t fallbacksLocal = 0;     // answered locally after a timeout or error of the chosen route
  std::uint64_t fallbacksCannotAnswer = 0;  // told the user it cannot answer now after a timeout or error
  std::uint64_t hardTimeouts = 0;       // an attempt not finished within latency.hard-timeout-ms
  std::uint64_t incomplete = 0;         // answers cut short after part was spoken (error or deadline)
  std::uint64_t streamErrors = 0;       // the chosen route reported an error
  std::uint64_t cancellations = 0;      // barge-in ended a supervised request
  std::uint64_t breakerOpened = 0;      // times the circuit breaker opened

  // One line of "key=value" pairs ("decisions=3 route.cloud=1 ... fillers=0"), for status output. Allocates.
  std::string format() const;
};

// Threads: every count*() from any thread, snapshot() from any thread; relaxed atomics, no allocation, no lock.
class RouterMetrics {
 public:
  void countDecision(const RouteDecision& d) noexcept;
  void countFiller() noexcept { add(fillers_); }
  void countFallbackLocal() noexcept { add(fallbacksLocal_); }
  void countFallbackCannotAnswer() noexcept { add(fallbacksCannotAnswer_); }
  void countHardTimeout() noexcept { add(hardTimeouts_); }
  void countIncomplete() noexcept { add(incomplete_); }
  void countStreamError() noexcept { add(streamErrors_); }
  void countCancellation() noexcept { add(cancellations_); }
  void countBreakerOpened() noexcept { add(breakerOpened_); }

  RouterCounts snapshot() const noexcept;

 private:
  static void add(std::atomic<std::uint64_t>& c) noexcept { c.fetch_add(1, std::memory_order_relaxed); }

  std::array<std::atomic<std::uint64_t>, kRouteCount> routes_{};
  std::array<std::atomic<std::uint64_t>, kReasonCount> reasons_{};
  std::array<std::atomic<std::uint64_t>, kCloudBlockCount> cloudBlocks_{};
  std::atomic<std::uint64_t> decisions_{0}, fillers_{0}, fallbacksLocal_{0}, fallbacksCannotAnswer_{0};
  std::atomic<std::uint64_t> hardTimeouts_{0}, streamErrors_{0}, cancellations_{0}, breakerOpened_{0};
  std::atomic<std::uint64_t> incomplete_{0};
};

}  // namespace sotto::router
