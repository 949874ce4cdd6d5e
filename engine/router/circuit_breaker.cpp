// SPDX-License-Identifier: MIT
// CircuitBreaker: consecutive-failure and failure-ratio tripping, half-open single probe, capped exponential backoff.
#include "engine/router/circuit_breaker.h"

#include <algorithm>

namespace sotto::router {

Status CircuitBreaker::validate(const BreakerOptions& o) {
  if (o.consecutiveFailures == 0) return makeError(Errc::invalid_argument, "breaker: consecutive failures must be > 0");
  if (o.window == 0 || o.window > kMaxWindow) {
    return makeError(Errc::invalid_argument, "breaker: window must be 1.." + std::to_string(kMaxWindow));
  }
  if (o.failurePercent == 0 || o.failurePercent > 100) {
    return makeError(Errc::invalid_argument, "breaker: failure percent must be 1..100");
  }
  if (o.backoff.count() <= 0 || o.backoff > o.maxBackoff) {
    return makeError(Errc::invalid_argument, "breaker: backoff must be > 0 and not above the maximum backoff");
  }
  return {};
}

CircuitBreaker::CircuitBreaker(const BreakerOptions& options) noexcept : options_(options), backoff_(options.backoff) {
  options_.window = std::clamp<std::uint32_t>(options_.window, 1, kMaxWindow);
}

BreakerState CircuitBreaker::admission(Millis now) const noexcept {
  switch (state_) {
    case BreakerState::closed: return BreakerState::closed;
    case BreakerState::open: return now >= openUntil_ ? BreakerState::halfOpen : BreakerState::open;
    case BreakerState::halfOpen: return probeOut_ ? BreakerState::open : BreakerState::halfOpen;
  }
  return BreakerState::open;
}

bool CircuitBreaker::tryAcquire(Millis now) noexcept {
  if (admission(now) == BreakerState::open) return false;
  if (state_ != BreakerState::closed) {
    state_ = BreakerState::halfOpen;
    probeOut_ = true;
  }
  return true;
}

void CircuitBreaker::onSuccess(Millis now) noexcept {
  (void)now;
  if (state_ == BreakerState::halfOpen && probeOut_) {
    close();
    return;
  }
  if (state_ == BreakerState::closed) {
    consecutive_ = 0;
    record(false);
  }
}

void CircuitBreaker::onFailure(Millis now) noexcept {
  if (state_ == BreakerState::halfOpen && probeOut_) {
    backoff_ = std::min(backoff_ * 2, options_.maxBackoff);
    open(now);
    return;
  }
  if (state_ != BreakerState::closed) return;
  ++consecutive_;
  record(true);
  const bool ratioTrips = outcomeCount_ == options_.window &&
                          windowFailures_ * 100 >= options_.failurePercent * options_.window;
  if (consecutive_ >= options_.consecutiveFailures || ratioTrips) open(now);
}

void CircuitBreaker::onAbandoned() noexcept {
  if (state_ == BreakerState::halfOpen) probeOut_ = false;
}

void CircuitBreaker::record(bool failed) noexcept {
  if (outcomeCount_ == options_.window) {
    if (outcomes_[outcomeNext_]) --windowFailures_;
  } else {
    ++outcomeCount_;
  }
  outcomes_[outcomeNext_] = failed;
  if (failed) ++windowFailures_;
  outcomeNext_ = (outcomeNext_ + 1) % options_.window;
}

void CircuitBreaker::open(Millis now) noexcept {
  state_ = BreakerState::open;
  probeOut_ = false;
  openUntil_ = now + backoff_;
  ++opened_;
}

void CircuitBreaker::close() noexcept {
  state_ = BreakerState::closed;
  probeOut_ = false;
  backoff_ = options_.backoff;
  consecutive_ = 0;
  outcomeCount_ = outcomeNext_ = windowFailures_ = 0;
}

}  // namespace sotto::router
