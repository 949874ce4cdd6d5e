// SPDX-License-Identifier: MIT
// CircuitBreaker transitions on an injected clock: consecutive failures, failure ratio, half-open single probe,
// exponential backoff with its cap, abandoned probes, late outcomes, option validation.
#include <gtest/gtest.h>

#include "engine/router/circuit_breaker.h"

namespace sotto::router {
namespace {

using namespace std::chrono_literals;

BreakerOptions opts() {
  BreakerOptions o;
  o.consecutiveFailures = 3;
  o.failurePercent = 50;
  o.window = 10;
  o.backoff = 1000ms;
  o.maxBackoff = 5000ms;
  return o;
}

TEST(RouterBreaker, OpensAfterConsecutiveFailures) {
  CircuitBreaker b(opts());
  Millis t{100000};
  EXPECT_EQ(b.admission(t), BreakerState::closed);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(b.tryAcquire(t));
    b.onFailure(t);
    EXPECT_EQ(b.admission(t), BreakerState::closed);
  }
  ASSERT_TRUE(b.tryAcquire(t));
  b.onFailure(t);
  EXPECT_EQ(b.state(), BreakerState::open);
  EXPECT_EQ(b.admission(t), BreakerState::open);
  EXPECT_FALSE(b.tryAcquire(t + 999ms));
  EXPECT_EQ(b.timesOpened(), 1u);
}

TEST(RouterBreaker, SuccessResetsTheRun) {
  CircuitBreaker b(opts());
  Millis t{0};
  for (int i = 0; i < 10; ++i) {
    b.onFailure(t);
    b.onFailure(t);
    b.onSuccess(t);  // 2 failures, then a success: never 3 in a row... but the ratio 2/3 trips once the window fills
    if (b.state() == BreakerState::open) break;
  }
  // 10 outcomes with 7 failures (>= 50 %): the ratio rule opened it, not the run rule.
  EXPECT_EQ(b.state(), BreakerState::open);
  EXPECT_LT(b.consecutiveFailures(), 3u);
}

TEST(RouterBreaker, RatioNeedsAFullWindow) {
  BreakerOptions o = opts();
  o.consecutiveFailures = 100;
  o.failurePercent = 30;
  CircuitBreaker b(o);
  Millis t{0};
  // 9 outcomes with 4 failures (44 %): the window is not full yet.
  for (int i = 0; i < 5; ++i) b.onSuccess(t);
  for (int i = 0; i < 4; ++i) b.onFailure(t);
  EXPECT_EQ(b.state(), BreakerState::closed);
  b.onSuccess(t);  // full window: 4/10 = 40 % but the last outcome is a success: the ratio is checked on failures
  EXPECT_EQ(b.state(), BreakerState::closed);
  b.onFailure(t);  // window slides: oldest success out, 5/10 failed
  EXPECT_EQ(b.state(), BreakerState::open);
}

TEST(RouterBreaker, RatioBelowThresholdStaysClosed) {
  BreakerOptions o = opts();
  o.consecutiveFailures = 100;
  CircuitBreaker b(o);
  Millis t{0};
  for (int i = 0; i < 100; ++i) {
    if (i % 3 == 0) {
      b.onFailure(t);
    } else {
      b.onSuccess(t);
    }
  }
  EXPECT_EQ(b.state(), BreakerState::closed);  // at most 4 of 10 failed
}

TEST(RouterBreaker, HalfOpenAdmitsOneProbeAndClosesOnSuccess) {
  CircuitBreaker b(opts());
  Millis t{5000};
  for (int i = 0; i < 3; ++i) b.onFailure(t);
  ASSERT_EQ(b.state(), BreakerState::open);
  EXPECT_EQ(b.admission(t + 999ms), BreakerState::open);
  EXPECT_EQ(b.admission(t + 1000ms), BreakerState::halfOpen);
  ASSERT_TRUE(b.tryAcquire(t + 1000ms));
  EXPECT_EQ(b.state(), BreakerState::halfOpen);
  EXPECT_EQ(b.admission(t + 1001ms), BreakerState::open);  // the probe is out: nobody else
  EXPECT_FALSE(b.tryAcquire(t + 1001ms));
  b.onSuccess(t + 1200ms);
  EXPECT_EQ(b.state(), BreakerState::closed);
  EXPECT_EQ(b.admission(t + 1200ms), BreakerState::closed);
  EXPECT_EQ(b.currentBackoff(), 1000ms);
  EXPECT_EQ(b.consecutiveFailures(), 0u);
}

TEST(RouterBreaker, FailedProbesDoubleTheBackoffUpToTheCap) {
  CircuitBreaker b(opts());
  Millis t{0};
  for (int i = 0; i < 3; ++i) b.onFailure(t);
  const Millis expected[] = {2000ms, 4000ms, 5000ms, 5000ms};
  for (Millis e : expected) {
    t = b.openUntil();
    ASSERT_TRUE(b.tryAcquire(t));
    b.onFailure(t);
    EXPECT_EQ(b.state(), BreakerState::open);
    EXPECT_EQ(b.currentBackoff(), e);
    EXPECT_EQ(b.openUntil(), t + e);
  }
  EXPECT_EQ(b.timesOpened(), 5u);
  // Recovery resets the backoff to its first value.
  t = b.openUntil();
  ASSERT_TRUE(b.tryAcquire(t));
  b.onSuccess(t);
  for (int i = 0; i < 3; ++i) b.onFailure(t);
  EXPECT_EQ(b.openUntil(), t + 1000ms);
}

TEST(RouterBreaker, AbandonedProbeFreesTheSlot) {
  CircuitBreaker b(opts());
  Millis t{0};
  for (int i = 0; i < 3; ++i) b.onFailure(t);
  t += 1000ms;
  ASSERT_TRUE(b.tryAcquire(t));
  EXPECT_FALSE(b.tryAcquire(t));
  b.onAbandoned();  // barge-in cancelled the probe: no verdict
  EXPECT_EQ(b.admission(t), BreakerState::halfOpen);
  EXPECT_TRUE(b.tryAcquire(t));
  b.onAbandoned();
  // A success nobody probed for (a late answer) does not close a half-open breaker; the probe's success does.
  b.onSuccess(t);
  EXPECT_EQ(b.state(), BreakerState::halfOpen);
  ASSERT_TRUE(b.tryAcquire(t));
  b.onSuccess(t);
  EXPECT_EQ(b.state(), BreakerState::closed);
  // Abandoning while closed changes nothing.
  b.onAbandoned();
  EXPECT_EQ(b.admission(t), BreakerState::closed);
}

TEST(RouterBreaker, LateOutcomesWhileOpenChangeNothing) {
  CircuitBreaker b(opts());
  Millis t{0};
  for (int i = 0; i < 3; ++i) b.onFailure(t);
  b.onSuccess(t + 10ms);  // a request admitted before the breaker opened finally answered
  EXPECT_EQ(b.state(), BreakerState::open);
  b.onFailure(t + 20ms);
  EXPECT_EQ(b.state(), BreakerState::open);
  EXPECT_EQ(b.openUntil(), t + 1000ms);  // no extension either
  EXPECT_EQ(b.timesOpened(), 1u);
}

TEST(RouterBreaker, Validation) {
  EXPECT_TRUE(CircuitBreaker::validate(opts()).ok());
  BreakerOptions o = opts();
  o.consecutiveFailures = 0;
  EXPECT_FALSE(CircuitBreaker::validate(o).ok());
  o = opts();
  o.window = CircuitBreaker::kMaxWindow + 1;
  EXPECT_FALSE(CircuitBreaker::validate(o).ok());
  o = opts();
  o.failurePercent = 101;
  EXPECT_FALSE(CircuitBreaker::validate(o).ok());
  o = opts();
  o.backoff = 6000ms;
  EXPECT_FALSE(CircuitBreaker::validate(o).ok());
  o = opts();
  o.backoff = 0ms;
  EXPECT_EQ(CircuitBreaker::validate(o).error().code, Errc::invalid_argument);
}

}  // namespace
}  // namespace sotto::router
