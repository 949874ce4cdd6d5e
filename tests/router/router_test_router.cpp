// SPDX-License-Identifier: MIT
// Router facade: option checks, state fed into decisions (breaker, caps, latency), cloud admission, the one log
// line per decision, metrics read from other threads; and the latency predictor.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "engine/router/router.h"
#include "sotto/hal/log.h"

namespace sotto::router {
namespace {

using namespace std::chrono_literals;

RouterOptions baseOptions() {
  RouterOptions o;
  o.cloudConfigured = true;
  o.logDecisions = false;
  o.breaker.consecutiveFailures = 2;
  o.breaker.backoff = 1000ms;
  o.breaker.maxBackoff = 4000ms;
  o.caps = {3, 10};
  return o;
}

RouteInputs unsureQuestion() {
  RouteInputs in;
  in.mode = privacy::PrivacyMode::standard;
  in.local = {true, true, 0.3f};
  return in;
}

TEST(RouterFacade, RejectsBadOptions) {
  RouterOptions o = baseOptions();
  EXPECT_TRUE(Router::create(o).ok());
  o.thresholds.localConfidence = 1.5f;
  EXPECT_FALSE(Router::create(o).ok());
  o = baseOptions();
  o.caps = {10, 5};
  EXPECT_FALSE(Router::create(o).ok());
  o = baseOptions();
  o.breaker.window = 0;
  EXPECT_FALSE(Router::create(o).ok());
  o = baseOptions();
  o.supervisor.firstTokenBudget = 9000ms;  // above the 8000 ms hard timeout
  auto r = Router::create(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("first-token"), std::string::npos);
}

TEST(RouterFacade, CloudAdmissionCountsAgainstCapsAndBreaker) {
  auto router = Router::create(baseOptions());
  ASSERT_TRUE(router.ok());
  Router& r = **router;
  Millis t{1000000};
  for (int i = 0; i < 3; ++i) {
    const RouteDecision d = r.route(unsureQuestion(), t);
    ASSERT_EQ(d.route, Route::cloud) << i;
    r.onCloudSuccess(t + 500ms);
    t += 1min;
  }
  EXPECT_EQ(r.caps().state(t).lastHour, 3u);
  // Hourly cap of 3 reached: local best effort, blamed on the cap.
  RouteDecision d = r.route(unsureQuestion(), t);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::costCap);
  // An hour after the first, one slot frees.
  t = Millis{1000000} + CostCaps::kHour;
  d = r.route(unsureQuestion(), t);
  EXPECT_EQ(d.route, Route::cloud);

  r.onCloudSuccess(t);
}

TEST(RouterFacade, BreakerKeepsRequestsOffAFailingCloud) {
  RouterOptions o = baseOptions();
  o.caps = {60, 500};
  auto router = Router::create(o);
  ASSERT_TRUE(router.ok());
  Router& r = **router;
  Millis t{1000000};
  // Two failures in a row open the breaker (consecutiveFailures = 2).
  ASSERT_EQ(r.route(unsureQuestion(), t).route, Route::cloud);
  r.onCloudFailure(t);
  RouteDecision d = r.route(unsureQuestion(), t + 1min);
  ASSERT_EQ(d.route, Route::cloud);
  r.onCloudFailure(t + 1min);
  EXPECT_EQ(r.breaker().state(), BreakerState::open);
  EXPECT_EQ(r.metrics().snapshot().breakerOpened, 1u);
  d = r.route(unsureQuestion(), t + 1min + 500ms);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::breakerOpen);
  // After the backoff one probe goes; the next request meanwhile stays local.
  d = r.route(unsureQuestion(), t + 1min + 1000ms);
  EXPECT_EQ(d.route, Route::cloud);
  EXPECT_EQ(r.breaker().state(), BreakerState::halfOpen);
  d = r.route(unsureQuestion(), t + 1min + 1100ms);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::breakerOpen);
  r.onCloudSuccess(t + 1min + 1200ms);
  EXPECT_EQ(r.breaker().state(), BreakerState::closed);
}

TEST(RouterFacade, LatencyFeedsTheBudget) {
  RouterOptions o = baseOptions();
  o.thresholds.cloudBudgetMs = 2000;
  auto router = Router::create(o);
  ASSERT_TRUE(router.ok());
  Router& r = **router;
  for (int i = 0; i < 20; ++i) r.recordFirstAudio(Route::cloud, 2500 + static_cast<std::uint32_t>(i));
  const RouteDecision d = r.route(unsureQuestion(), Millis{0});
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::overBudget);
  EXPECT_EQ(d.scores.cloudPredictedMs, 2518u);  // nearest rank: the 19th of 20
  // With confidence unknown the caller is told to measure it first only while the cloud is usable.
  RouteInputs in = unsureQuestion();
  in.local.confidenceKnown = false;
  EXPECT_FALSE(r.needsLocalConfidence(in, Millis{0}));
  for (std::size_t i = 0; i < LatencyPredictor::kWindow; ++i) r.recordFirstAudio(Route::cloud, 900);
  EXPECT_TRUE(r.needsLocalConfidence(in, Millis{0}));
}

TEST(RouterFacade, OneLogLinePerDecisionAndMetrics) {
  RouterOptions o = baseOptions();
  o.logDecisions = true;
  auto router = Router::create(o);
  ASSERT_TRUE(router.ok());
  Router& r = **router;
  log::init(log::Level::info, log::Sink::stderr_);
  testing::internal::CaptureStderr();
  RouteInputs in = unsureQuestion();
  in.pii = PiiVerdict::redactable;
  (void)r.route(in, Millis{0});
  in.mode = privacy::PrivacyMode::offline;
  (void)r.route(in, Millis{0});
  in.intent = {true, 0.9f};
  (void)r.route(in, Millis{0});
  const std::string err = testing::internal::GetCapturedStderr();
  std::vector<std::string> lines;
  for (std::size_t pos = 0, nl; (nl = err.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    lines.push_back(err.substr(pos, nl - pos));
  }
  ASSERT_EQ(lines.size(), 3u) << err;
  // Shape: the fixed prefix, then exactly these keys in this order, each "key=value" with a non-empty value made
  // of [a-z0-9.-] (no free text can hide in a line of this shape).
  const std::vector<std::string> keys{"route", "reason", "block",   "mode",  "pii",   "forced",  "intent", "local",
                                      "cache", "sim",    "guards",  "breaker", "cap", "pred_ms", "cloud_ms"};
  const std::string prefix = "info router[decision]: ";
  for (const std::string& l : lines) {
    ASSERT_EQ(l.rfind(prefix, 0), 0u) << l;
    std::vector<std::string> fields;
    for (std::size_t pos = prefix.size(); pos <= l.size();) {
      std::size_t sp = l.find(' ', pos);
      if (sp == std::string::npos) sp = l.size();
      fields.push_back(l.substr(pos, sp - pos));
      pos = sp + 1;
    }
    ASSERT_EQ(fields.size(), keys.size()) << l;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::string& f = fields[i];
      ASSERT_EQ(f.rfind(keys[i] + "=", 0), 0u) << l;
      const std::string value = f.substr(keys[i].size() + 1);
      EXPECT_FALSE(value.empty()) << l;
      for (char ch : value) {
        EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-') << l;
      }
    }
  }
  EXPECT_NE(lines[0].find("route=cloud reason=low-confidence"), std::string::npos);
  EXPECT_NE(lines[1].find("route=local reason=local-best-effort block=offline mode=offline"), std::string::npos);
  EXPECT_NE(lines[2].find("route=intent reason=intent-confident"), std::string::npos);

  const RouterCounts c = r.metrics().snapshot();
  EXPECT_EQ(c.decisions, 3u);
  EXPECT_EQ(c.routes[static_cast<std::size_t>(Route::cloud)], 1u);
  EXPECT_EQ(c.routes[static_cast<std::size_t>(Route::local)], 1u);
  EXPECT_EQ(c.routes[static_cast<std::size_t>(Route::intent)], 1u);
  EXPECT_EQ(c.reasons[static_cast<std::size_t>(Reason::localBestEffort)], 1u);
  EXPECT_EQ(c.cloudBlocks[static_cast<std::size_t>(CloudBlock::offline)], 1u);
  const std::string f = c.format();
  EXPECT_NE(f.find("decisions=3 route.intent=1 route.cache=0 route.local=1 route.cloud=1 route.cannot-answer=0"),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("block.offline=1"), std::string::npos) << f;
}

TEST(RouterFacade, MetricsReadableFromAnyThread) {
  RouterMetrics m;
  LatencyPredictor p;
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    std::uint64_t last = 0;
    while (!stop.load()) {
      const RouterCounts c = m.snapshot();
      EXPECT_GE(c.decisions, last);  // monotonic
      last = c.decisions;
      (void)p.predictMs(Route::local);
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&] {
      RouteDecision d;
      d.route = Route::local;
      d.reason = Reason::localConfident;
      for (int i = 0; i < 20000; ++i) {
        m.countDecision(d);
        m.countFiller();
        p.record(Route::local, static_cast<std::uint32_t>(i % 1000));
      }
    });
  }
  for (auto& t : writers) t.join();
  stop = true;
  reader.join();
  const RouterCounts c = m.snapshot();
  EXPECT_EQ(c.decisions, 40000u);
  EXPECT_EQ(c.fillers, 40000u);
  EXPECT_EQ(c.routes[static_cast<std::size_t>(Route::local)], 40000u);
}

TEST(RouterLatency, PriorsThenWindowedP95) {
  LatencyOptions o;
  o.minSamples = 5;
  o.priorMs = {300, 300, 800, 0, 0};
  LatencyPredictor p(o);
  EXPECT_EQ(p.predictMs(Route::local), 800u);
  EXPECT_EQ(p.predictMs(Route::cloud), 0u);  // unknown
  EXPECT_EQ(p.predictMs(Route::cannotAnswer), 0u);
  for (std::uint32_t v : {100u, 200u, 300u, 400u}) p.record(Route::local, v);
  EXPECT_EQ(p.predictMs(Route::local), 800u);  // 4 < minSamples: still the prior
  p.record(Route::local, 5000);
  EXPECT_EQ(p.predictMs(Route::local), 5000u);  // nearest-rank p95 of 5 samples is the largest
  // 100 samples 1..100: p95 = 95.
  LatencyPredictor q(o);
  for (std::uint32_t v = 100; v >= 1; --v) q.record(Route::cloud, v);
  EXPECT_EQ(q.predictMs(Route::cloud), 95u);
  EXPECT_EQ(q.samples(Route::cloud), 100u);
  // The window keeps the newest kWindow samples: a slow past is forgotten.
  for (std::size_t i = 0; i < LatencyPredictor::kWindow; ++i) q.record(Route::cloud, 40);
  EXPECT_EQ(q.predictMs(Route::cloud), 40u);
  const auto all = q.predictAll();
  EXPECT_EQ(all[static_cast<std::size_t>(Route::cloud)], 40u);
  EXPECT_EQ(all[static_cast<std::size_t>(Route::intent)], 300u);
  q.record(Route::cannotAnswer, 7);  // ignored
  EXPECT_EQ(q.samples(Route::cannotAnswer), 0u);
}

TEST(RouterLatency, SeededFromAHistogram) {
  pipeline::Histogram h;
  for (std::uint64_t us = 1000; us <= 100000; us += 1000) h.record(us);  // 1..100 ms in microseconds
  LatencyPredictor p;
  p.seed(Route::cloud, h.snapshot().summary());
  const std::uint32_t predicted = p.predictMs(Route::cloud);
  EXPECT_GE(predicted, 95u);
  EXPECT_LE(predicted, 96u);  // the histogram's bucket resolution
  EXPECT_EQ(p.samples(Route::cloud), 100u);
}

}  // namespace
}  // namespace sotto::router
