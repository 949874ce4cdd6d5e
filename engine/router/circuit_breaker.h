// SPDX-License-Identifier: MIT
// CircuitBreaker: keeps requests off a failing cloud endpoint; opens on repeated failures, probes after a backoff.
#pragma once

#include <array>
#include <cstdint>

#include "engine/router/route.h"
#include "sotto/hal/result.h"

namespace sotto::router {

struct BreakerOptions {
  std::uint32_t consecutiveFailures = 3;  // open after this many failures in a row (router.breaker-failures)
  std::uint32_t failurePercent = 50;      // ... or when this share of the last `window` outcomes failed
  std::uint32_t window = 10;              // outcomes the ratio looks at (it only applies once the window is full)
  Millis backoff{5000};                   // first open period (router.breaker-backoff-ms)
  Millis maxBackoff{300000};              // the period doubles after each failed probe, up to this
};

// closed ──N failures in a row, or failure ratio over the window──▶ open ──backoff elapsed──▶ half-open: one probe
// half-open ──probe succeeds──▶ closed (backoff reset) · ──probe fails──▶ open with the backoff doubled (capped)
// Outcomes of requests admitted before the breaker opened are counted but change nothing while it is open.
//
// Threads: one thread (the brain thread, which admits requests and hears their outcomes); not thread-safe.
// No allocation, no blocking; time comes in as `now`.
class CircuitBreaker {
 public:
  static constexpr std::uint32_t kMaxWindow = 64;
  // Errors: zero thresholds, window above kMaxWindow, percent above 100, backoff 0 or above maxBackoff.
  static Status validate(const BreakerOptions& options);
  explicit CircuitBreaker(const BreakerOptions& options) noexcept;

  // What the router may do now: closed (send), halfOpen (the backoff elapsed and no probe is out: send one probe),
  // open (do not send). Does not change state.
  BreakerState admission(Millis now) const noexcept;
  // Call when a request is actually sent. closed: true. open after the backoff: becomes half-open, grants the
  // single probe, true. Otherwise (open, or a probe already out) false: do not send.
  bool tryAcquire(Millis now) noexcept;
  void onSuccess(Millis now) noexcept;
  void onFailure(Millis now) noexcept;
  // The request ended without a verdict (cancelled by barge-in): a half-open probe slot is freed, nothing counts.
  void onAbandoned() noexcept;

  // Internal state (open stays open until a probe is granted). Diagnostics and tests.
  BreakerState state() const noexcept { return state_; }
  Millis currentBackoff() const noexcept { return backoff_; }
  Millis openUntil() const noexcept { return openUntil_; }
  std::uint32_t timesOpened() const noexcept { return opened_; }
  std::uint32_t consecutiveFailures() const noexcept { return consecutive_; }

 private:
  void record(bool failed) noexcept;
  void open(Millis now) noexcept;
  void close() noexcept;

  BreakerOptions options_;
  BreakerState state_ = BreakerState::closed;
  bool probeOut_ = false;
  Millis backoff_;
  Millis openUntil_{0};
  std::uint32_t consecutive_ = 0;
  std::uint32_t opened_ = 0;
  std::array<bool, kMaxWindow> outcomes_{};  // ring of the last `window` outcomes, true = failed
  std::uint32_t outcomeCount_ = 0;           // filled slots, up to window
  std::uint32_t outcomeNext_ = 0;
  std::uint32_t windowFailures_ = 0;
};

}  // namespace sotto::router
