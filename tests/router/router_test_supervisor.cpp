// SPDX-License-Identifier: MIT
// RequestSupervisor timelines on an injected clock: first token in time, filler then answer, hard timeout with and
// without a local model, errors, cancellation, deadlines and the metrics it counts.
#include <gtest/gtest.h>

#include "engine/router/router_metrics.h"
#include "engine/router/supervisor.h"
#include "tests/support/alloc_counter.h"

namespace sotto::router {
namespace {

using namespace std::chrono_literals;
using A = SupervisorAction;

const SupervisorOptions kOpts{700ms, 8000ms};
const Millis t0{50000};

// Ticks every 10 ms from `from` to `to` (exclusive) and returns the first action that is not none, with its time.
std::pair<A, Millis> tickUntil(RequestSupervisor& s, Millis from, Millis to) {
  for (Millis t = from; t < to; t += 10ms) {
    const A a = s.onTick(t);
    if (a != A::none) return {a, t};
  }
  return {A::none, to};
}

TEST(RouterSupervisor, FirstTokenInTime) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0);
  EXPECT_EQ(s.phase(), SupervisorPhase::waiting);
  EXPECT_EQ(s.nextDeadline(), t0 + 700ms);
  EXPECT_EQ(tickUntil(s, t0, t0 + 450ms).first, A::none);
  EXPECT_EQ(s.onFirstToken(t0 + 450ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::streaming);
  EXPECT_EQ(s.firstTokenLatency(), 450ms);
  EXPECT_EQ(s.nextDeadline(), t0 + 8000ms);  // the whole answer's deadline
  // Streaming past the filler budget: nothing happens (no filler once the answer is being spoken).
  EXPECT_EQ(tickUntil(s, t0 + 450ms, t0 + 5000ms).first, A::none);
  EXPECT_EQ(s.onFinished(t0 + 5000ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::done);
  EXPECT_EQ(s.nextDeadline(), Millis::max());
  EXPECT_FALSE(s.fillerSpoken());
  EXPECT_EQ(m.snapshot().fillers, 0u);
}

TEST(RouterSupervisor, FillerThenAnswer) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0);
  auto [a, at] = tickUntil(s, t0, t0 + 8000ms);
  EXPECT_EQ(a, A::speakFiller);
  EXPECT_EQ(at, t0 + 700ms);
  EXPECT_TRUE(s.fillerSpoken());
  EXPECT_EQ(s.nextDeadline(), t0 + 8000ms);
  // Only once, however long the wait.
  EXPECT_EQ(tickUntil(s, at + 10ms, t0 + 2500ms).first, A::none);
  EXPECT_EQ(s.onFirstToken(t0 + 2500ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::streaming);
  EXPECT_EQ(s.currentRoute(), Route::cloud);
  EXPECT_EQ(s.firstTokenLatency(), 2500ms);
  EXPECT_EQ(s.onFinished(t0 + 4000ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::done);
  const RouterCounts c = m.snapshot();
  EXPECT_EQ(c.fillers, 1u);
  EXPECT_EQ(c.fallbacksLocal + c.fallbacksCannotAnswer + c.hardTimeouts, 0u);
}

TEST(RouterSupervisor, HardTimeoutFallsBackToLocal) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0);
  EXPECT_EQ(tickUntil(s, t0, t0 + 9000ms).first, A::speakFiller);
  auto [a, at] = tickUntil(s, t0 + 710ms, t0 + 9000ms);
  EXPECT_EQ(a, A::fallbackLocal);
  EXPECT_EQ(at, t0 + 8000ms);
  EXPECT_EQ(s.currentRoute(), Route::local);
  EXPECT_TRUE(s.fellBack());
  EXPECT_EQ(s.phase(), SupervisorPhase::waiting);
  // The local attempt gets its own hard timeout, and no second filler.
  EXPECT_EQ(s.nextDeadline(), at + 8000ms);
  EXPECT_EQ(tickUntil(s, at, at + 300ms).first, A::none);
  EXPECT_EQ(s.onFirstToken(at + 300ms), A::none);
  EXPECT_EQ(s.firstTokenLatency(), 8300ms);  // measured from the request's start
  EXPECT_EQ(s.onFinished(at + 900ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::done);
  const RouterCounts c = m.snapshot();
  EXPECT_EQ(c.fillers, 1u);
  EXPECT_EQ(c.hardTimeouts, 1u);
  EXPECT_EQ(c.fallbacksLocal, 1u);
  EXPECT_EQ(c.fallbacksCannotAnswer, 0u);
}

TEST(RouterSupervisor, HardTimeoutWithoutLocalCannotAnswer) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, false, t0);
  EXPECT_EQ(tickUntil(s, t0, t0 + 9000ms).first, A::speakFiller);
  auto [a, at] = tickUntil(s, t0 + 710ms, t0 + 9000ms);
  EXPECT_EQ(a, A::sayCannotAnswer);
  EXPECT_EQ(at, t0 + 8000ms);
  EXPECT_EQ(s.phase(), SupervisorPhase::failed);
  EXPECT_EQ(s.nextDeadline(), Millis::max());
  // A token that trickles in afterwards is ignored.
  EXPECT_EQ(s.onFirstToken(t0 + 8100ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::failed);
  EXPECT_EQ(m.snapshot().fallbacksCannotAnswer, 1u);
}

TEST(RouterSupervisor, LocalRouteTimingOutIsNotRetriedLocally) {
  RequestSupervisor s(kOpts);
  s.start(Route::local, true, t0);
  EXPECT_EQ(s.onTick(t0 + 8000ms), A::sayCannotAnswer);  // a late wake-up: straight to the fallback
  EXPECT_FALSE(s.fillerSpoken());
}

TEST(RouterSupervisor, FallbackLocalThenTimeoutAgainCannotAnswer) {
  RequestSupervisor s(kOpts);
  s.start(Route::cloud, true, t0);
  EXPECT_EQ(s.onError(t0 + 200ms), A::fallbackLocal);  // e.g. HTTP 503 before the filler was due
  EXPECT_EQ(s.onTick(t0 + 899ms), A::none);
  EXPECT_EQ(s.onTick(t0 + 900ms), A::speakFiller);  // first-token budget counts from the local attempt
  EXPECT_EQ(s.onTick(t0 + 8199ms), A::none);
  EXPECT_EQ(s.onTick(t0 + 8200ms), A::sayCannotAnswer);
  EXPECT_EQ(s.phase(), SupervisorPhase::failed);
}

TEST(RouterSupervisor, ErrorsMidStreamAndEmptyStreams) {
  RequestSupervisor s(kOpts);
  s.start(Route::cloud, true, t0);
  EXPECT_EQ(s.onError(t0 + 100ms), A::fallbackLocal);  // before anything was spoken: the local model answers
  ASSERT_EQ(s.onFirstToken(t0 + 300ms), A::none);
  EXPECT_EQ(s.onError(t0 + 1100ms), A::endIncomplete);  // the local model failed mid-answer
  EXPECT_EQ(s.phase(), SupervisorPhase::incomplete);
  EXPECT_EQ(s.onError(t0 + 1200ms), A::none);  // over already

  s.start(Route::cloud, false, t0);
  EXPECT_EQ(s.onFinished(t0 + 100ms), A::sayCannotAnswer);  // ended without a token: no answer
}

// A failure after part of the answer was spoken is not a normal answer, and never a second one: the spoken part
// stays and ends honestly (no fallback that would start the answer again), and the metrics count it.
TEST(RouterSupervisor, ErrorMidStreamEndsIncompleteWithoutFallback) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0);
  ASSERT_EQ(s.onFirstToken(t0 + 300ms), A::none);
  EXPECT_EQ(s.onError(t0 + 900ms), A::endIncomplete);  // e.g. a reset or a malformed event
  EXPECT_EQ(s.phase(), SupervisorPhase::incomplete);
  EXPECT_FALSE(s.fellBack());
  EXPECT_EQ(s.nextDeadline(), Millis::max());
  EXPECT_EQ(s.onTick(t0 + 9000ms), A::none);
  EXPECT_EQ(s.onFinished(t0 + 9000ms), A::none);
  const RouterCounts c = m.snapshot();
  EXPECT_EQ(c.streamErrors, 1u);
  EXPECT_EQ(c.incomplete, 1u);
  EXPECT_EQ(c.fallbacksLocal + c.fallbacksCannotAnswer, 0u);
  EXPECT_NE(c.format().find(" incomplete=1 "), std::string::npos) << c.format();
}

// latency.hard-timeout-ms bounds the whole answer: a stream that trickles tokens forever is cut at the deadline.
TEST(RouterSupervisor, HardTimeoutBoundsTheWholeAnswer) {
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0);
  ASSERT_EQ(s.onFirstToken(t0 + 100ms), A::none);
  EXPECT_EQ(s.nextDeadline(), t0 + 8000ms);
  auto [a, at] = tickUntil(s, t0 + 100ms, t0 + 60000ms);  // one token a second would never finish
  EXPECT_EQ(a, A::endIncomplete);
  EXPECT_EQ(at, t0 + 8000ms);
  EXPECT_EQ(s.phase(), SupervisorPhase::incomplete);
  EXPECT_EQ(s.currentRoute(), Route::cloud);  // no local answer after a spoken part
  const RouterCounts c = m.snapshot();
  EXPECT_EQ(c.hardTimeouts, 1u);
  EXPECT_EQ(c.incomplete, 1u);
  EXPECT_EQ(c.fillers, 0u);
  // The local fallback attempt has a whole-answer deadline of its own.
  s.start(Route::cloud, true, t0);
  ASSERT_EQ(s.onError(t0 + 500ms), A::fallbackLocal);
  ASSERT_EQ(s.onFirstToken(t0 + 600ms), A::none);
  EXPECT_EQ(s.onTick(t0 + 8499ms), A::none);
  EXPECT_EQ(s.onTick(t0 + 8500ms), A::endIncomplete);
}

TEST(RouterSupervisor, Cancellation) {
  RouterMetrics m;
  pipeline::CancelToken cancel;
  RequestSupervisor s(kOpts, &m);
  s.start(Route::cloud, true, t0, &cancel);
  EXPECT_EQ(s.onTick(t0 + 700ms), A::speakFiller);
  cancel.cancel();  // barge-in
  EXPECT_EQ(s.onTick(t0 + 710ms), A::stop);
  EXPECT_EQ(s.phase(), SupervisorPhase::cancelled);
  // Nothing after a cancellation: no fallback at the hard timeout, no late token, no error fallback.
  EXPECT_EQ(s.onTick(t0 + 9000ms), A::none);
  EXPECT_EQ(s.onFirstToken(t0 + 9000ms), A::none);
  EXPECT_EQ(s.onError(t0 + 9000ms), A::none);
  EXPECT_EQ(s.nextDeadline(), Millis::max());
  EXPECT_EQ(m.snapshot().cancellations, 1u);
  EXPECT_EQ(m.snapshot().fallbacksLocal, 0u);

  // Cancelled while streaming: the next event reports it.
  cancel.reset();
  s.start(Route::local, true, t0, &cancel);
  ASSERT_EQ(s.onFirstToken(t0 + 100ms), A::none);
  cancel.cancel();
  EXPECT_EQ(s.onFinished(t0 + 200ms), A::stop);
  EXPECT_EQ(m.snapshot().cancellations, 2u);

  // A token cancelled after the request finished changes nothing.
  cancel.reset();
  s.start(Route::local, true, t0, &cancel);
  ASSERT_EQ(s.onFirstToken(t0 + 100ms), A::none);
  ASSERT_EQ(s.onFinished(t0 + 200ms), A::none);
  cancel.cancel();
  EXPECT_EQ(s.onTick(t0 + 300ms), A::none);
  EXPECT_EQ(s.phase(), SupervisorPhase::done);
}

TEST(RouterSupervisor, NoAllocation) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  RouterMetrics m;
  RequestSupervisor s(kOpts, &m);
  pipeline::CancelToken cancel;
  sotto::test::NoAllocScope scope;
  for (int i = 0; i < 100; ++i) {
    s.start(Route::cloud, true, t0, &cancel);
    (void)tickUntil(s, t0, t0 + 9000ms);
    (void)s.onFirstToken(t0 + 9000ms);
  }
  EXPECT_EQ(scope.allocations(), 0u);
}

TEST(RouterSupervisor, Names) {
  EXPECT_STREQ(supervisorActionName(A::speakFiller), "speak-filler");
  EXPECT_STREQ(supervisorPhaseName(SupervisorPhase::cancelled), "cancelled");
  EXPECT_STREQ(supervisorActionName(A::endIncomplete), "end-incomplete");
  EXPECT_STREQ(supervisorPhaseName(SupervisorPhase::incomplete), "incomplete");
  EXPECT_STREQ(kFillerText, "Let me check that.");
}

}  // namespace
}  // namespace sotto::router
